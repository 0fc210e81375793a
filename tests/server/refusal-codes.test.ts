import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../contracts/common.ts';
import { z } from 'zod/mini';
import { STATUS_OF } from '../../server/src/infra/http/errors.ts';
import type { RefusalDeclaration } from '../../server/src/refusals.ts';
import { REFUSALS, refuse } from '../../server/src/sentences.ts';
import { expectCatalogued } from '../support/refusals.ts';

/**
 * The catalogue of refusal codes (server/src/sentences.ts `REFUSALS`) is a promise to clients: a code, once
 * shipped, keeps its name and its status. This list is that promise written down: renaming or dropping a code,
 * or moving it to another status, fails here. A new refusal adds its line.
 */
const PINNED: Record<string, number> = {
  'session.expired': 401,
  'sign_in.invalid_credentials': 400,
  'sign_in.locked': 429,
  'two_factor.invalid_code': 400,
  'two_factor.code_used': 400,
  'release.code_used': 403,
  'sign_in.too_many_codes': 409,
  'sign_in.expired': 409,
  'sign_in.suspended': 403,
  'two_factor.invalid_recovery_code': 400,
  'account.wrong_password': 400,
  'account.email_taken': 409,
  'account.username_taken': 409,
  'account.username_reserved': 400,
  'account.email_not_verified': 403,
  'email_code.expired': 400,
  'email_code.invalid': 400,
  'email_code.too_many_wrong': 400,
  'email_code.resend_too_soon': 429,
  'email_code.hourly_limit': 429,
  'mail.failed': 503,
  'two_factor.already_on': 409,
  'two_factor.not_on': 409,
  'two_factor.setup_first': 409,
  'two_factor.secret_unreadable': 503,
  'offer.not_found': 404,
  'offer.id_required': 400,
  'offer.unknown_coin': 400,
  'offer.unknown_currency': 400,
  'offer.unknown_payment_method': 400,
  'offer.repeated_payment_method': 400,
  'offer.min_above_max': 400,
  'offer.amount_not_number': 400,
  'offer.amount_not_positive': 400,
  'offer.amount_too_many_places': 400,
  'offer.amount_too_large': 400,
  'request.invalid_field': 400,
  'request.nul_character': 400,
  'request.lone_surrogate': 400,
  'rate_limit.requests': 429,
  'rate_limit.chat': 429,
  'realtime.channel_not_allowed': 403,
  'push.user_id_required': 400,
  'push.other_user': 403,
  'push.device_api_requests': 429,
  'push.device_api_registrations': 429,
  'request.not_json': 400,
  'request.malformed_json': 400,
  'request.body_too_large': 413,
  'request.body_not_object': 400,
  'request.no_such_call': 404,
  'request.host_not_allowed': 403,
  'request.bad_address': 400,
  'request.address_too_long': 414,
  'health.database_unavailable': 503,
  'health.redis_unavailable': 503,
  'server.internal_error': 500,
  'server.shutting_down': 503,
  'trade.payment_method_missing': 400,
  'trade.method_not_accepted': 400,
  'trade.amount_out_of_range': 400,
  'trade.condition_unmet': 403,
  'trade.own_offer': 403,
  'trade.offer_unavailable': 404,
  'trade.rate_changed': 409,
  'trade.amount_too_small': 400,
  'trade.seller_balance_too_low': 409,
  'trade.too_many_open': 409,
  'trade.offer_full': 409,
  'rate_limit.trade_opens': 429,
  'trade.not_found': 404,
  'trade.not_pending': 409,
  'trade.disputed': 409,
  'trade.payment_already_marked': 409,
  'trade.payment_not_marked': 409,
  'trade.cancel_after_payment': 409,
  'trade.dispute_before_payment': 409,
  'trade.only_buyer_marks_paid': 403,
  'trade.only_seller_releases': 403,
  'release.password_required': 403,
  'release.code_required': 403,
  'trade.selling_paused': 409,
  'trade.offer_seller_paused': 409,
  'trade.changed': 409,
  'chat.closed': 409,
  'withdrawal.amount_above_balance': 400,
  'withdrawal.unknown_coin': 400,
  'withdrawal.unknown_network': 400,
  'withdrawal.invalid_recipient': 400,
  'withdrawal.own_deposit_address': 400,
  'withdrawal.too_many_crypto_places': 400,
  'withdrawal.too_many_usd_places': 400,
  'withdrawal.amount_too_small': 400,
  'withdrawal.amount_not_above_fee': 400,
  'withdrawal.locked': 409,
  'withdrawal.nothing_to_confirm': 409,
  'withdrawal.transfer_too_small': 400,
  'rate_limit.withdrawal_previews': 429,
  'allowlist.already_off': 409,
  'allowlist.address_already_listed': 409,
  'allowlist.full': 409,
  'allowlist.address_not_listed': 404,
  'allowlist.recipient_not_listed': 400,
  'allowlist.recipient_waiting': 409,
  'notification.not_found': 404,
  'moderation.moderators_only': 403,
  'operator.operators_only': 403,
  'operator.not_a_trader': 403,
  'operator.no_such_trader': 404,
  'operator.not_a_trader_account': 409,
  'operator.already_suspended': 409,
  'operator.not_suspended': 409,
  'review.not_found': 404,
  'review.already_decided': 409,
  'review.not_in_review': 409,
  'operator.metrics_token_required': 401,
  'operator.metrics_token_refused': 401,
  'moderation.already_settled': 409,
  'moderation.own_trade_dispute': 403,
  'moderation.own_trade': 403,
  'rating.already_rated': 409,
  'rating.trade_not_completed': 409,
  'rating.trade_too_small': 409,
  'trader.not_found': 404,
  'dev_chain.not_simulated': 503,
  'dev_chain.on_real_chain': 400,
  'dev_chain.invalid_address': 400,
  'dev_chain.unknown_ticker': 400,
  'dev_chain.ticker_required': 400,
  'dev_chain.no_coins_on_network': 400,
  'dev_chain.too_many_places': 400,
};

/**
 * Refusals that share their words with another, each for a reason: the same words answer with another status
 * (a reused authenticator code at sign-in is a wrong input, at a release a refused proof; a long address is 414),
 * or in another call, where a client keys on which form refused.
 */
const SHARED_WORDS = [
  ['two_factor.code_used', 'release.code_used'],
  ['offer.unknown_coin', 'withdrawal.unknown_coin'],
  ['request.bad_address', 'request.address_too_long'],
];

const DOCS = 'docs/api.md';
const START = '<!-- refusal-codes:start (written by tests/server/refusal-codes.test.ts: WRITE_DOCS=1 to rewrite) -->';
const END = '<!-- refusal-codes:end -->';

/** A parameter shown by name: `{minutes}`. A String, so `.length` and `.join` work as on the real arguments. */
class Placeholder extends String {
  join(): string {
    return this.toString();
  }
}

/** The parameters of a sentence function, by name, from its source (`(ticker, places) =>` or `minutes =>`). */
const parameterNames = (sentence: (...args: never[]) => string): string[] =>
  (/^\(?([^)=]*)\)?\s*=>/.exec(sentence.toString())?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

/** The sentence as docs/api.md shows it: fixed, or with each parameter as `{name}`. */
function shownSentence(entry: RefusalDeclaration): string {
  if (typeof entry.sentence === 'string') return entry.sentence;
  const args = parameterNames(entry.sentence).map((name) => new Placeholder(`{${name}}`));
  return String((entry.sentence as unknown as (...values: Placeholder[]) => string)(...args));
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The section of docs/api.md listing the catalogue, one row per code, in the catalogue's order. */
function catalogueSection(): string {
  const rows = Object.values(REFUSALS).map(
    (entry) => `| \`${entry.code}\` | ${STATUS_OF[entry.kind]} | ${cell(shownSentence(entry))} |`,
  );
  return [START, '| code | status | sentence |', '|---|---|---|', ...rows, END].join('\n');
}

describe('the refusal codes', () => {
  const entries = Object.values(REFUSALS);

  it('are the pinned ones, each with its pinned status', () => {
    expect(Object.fromEntries(entries.map((entry) => [entry.code, STATUS_OF[entry.kind]]))).toEqual(PINNED);
  });

  it('are unique, shaped `area.what_went_wrong` as the contract says, one per refusal', () => {
    const codes = entries.map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of entries) {
      expect(z.safeParse(refusal, { success: false, code: entry.code, info: shownSentence(entry) }).success, entry.code).toBe(true);
    }
    const byWords = new Map<string, string[]>();
    for (const entry of entries) {
      if (typeof entry.sentence !== 'string') continue;
      byWords.set(entry.sentence, [...(byWords.get(entry.sentence) ?? []), entry.code]);
    }
    expect([...byWords.values()].filter((codes) => codes.length > 1)).toEqual(SHARED_WORDS);
  });

  it('build refusals carrying their code, kind and sentence', () => {
    const methodRefused = refuse.methodNotAccepted('PayPal');
    expect({ kind: methodRefused.kind, code: methodRefused.code, sentence: methodRefused.sentence }).toEqual({
      kind: 'invalidInput',
      code: 'trade.method_not_accepted',
      sentence: 'This offer does not accept PayPal.',
    });
    expect(refuse.tradeNotPending().code).toBe('trade.not_pending');
    expect(shownSentence(REFUSALS.unknownWithdrawalNetwork)).toBe('{ticker} cannot be withdrawn on this network. Choose one of {networks}.');
  });

  it('are what every test-app call checks a refusal against: a missing, unknown or mis-statused code fails it', () => {
    expectCatalogued(409, { success: false, code: 'trade.not_pending', info: 'This trade is no longer pending.' });
    expect(() => expectCatalogued(409, { success: false, info: 'This trade is no longer pending.' })).toThrow();
    expect(() => expectCatalogued(409, { success: false, code: 'trade.no_longer_pending', info: 'This trade is no longer pending.' })).toThrow();
    expect(() => expectCatalogued(400, { success: false, code: 'trade.not_pending', info: 'This trade is no longer pending.' })).toThrow();
    expect(() => expectCatalogued(409, { success: false, code: 'trade.not_pending', info: 'This trade is pending.' })).toThrow();
  });

  it('are listed in docs/api.md "Refusal codes", as the catalogue has them', () => {
    const docs = readFileSync(DOCS, 'utf8');
    const start = docs.indexOf(START);
    const end = docs.indexOf(END);
    expect(start, `${DOCS} has no ${START}`).toBeGreaterThanOrEqual(0);
    const written = docs.slice(start, end + END.length);
    if (process.env.WRITE_DOCS === '1') writeFileSync(DOCS, docs.replace(written, catalogueSection()));
    else expect(written).toBe(catalogueSection());
  });
});

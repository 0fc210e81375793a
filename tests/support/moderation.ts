/**
 * The dispute desk's answers for the web tests (the list, one dispute, messages), shaped by the zod contracts,
 * and a fake `market/moderation/` service whose calls wait until the test answers them.
 */
import type { ChatMessage } from '../../contracts/index.ts';
import type { DisputeDetail, DisputeSummary } from '../../contracts/moderation.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { ModerationService } from '../../src/services/moderation.ts';
import { fakeRealtime } from './chat.ts';
import { scriptedService } from './machines.ts';

/** When the first dispute was raised; the others later, a minute apart per index. */
export const RAISED_AT = '2026-03-05T12:00:00.000Z';

export function disputeSummary(index: number, overrides: Partial<DisputeSummary> = {}): DisputeSummary {
  return {
    channel: `trade-${index}`,
    buyer: 'alice',
    seller: 'bob',
    coin__ticker: 'BTC',
    coin__image: '/coins/btc.svg',
    trading_amount_crypto: '0.01500000',
    trading_amount: '975.00',
    currency__code: 'USD',
    disputed_by: 'alice',
    disputed_at: new Date(Date.parse(RAISED_AT) + index * 60_000).toISOString(),
    reason: `I paid but bob does not release (${index})`,
    ...overrides,
  };
}

export function moderationMessage(id: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    sender: 'alice',
    recipient: 'all',
    text: `message ${id}`,
    created: `2026-03-05T11:${String(id % 60).padStart(2, '0')}:00.000Z`,
    channel: 'trade-1',
    ...overrides,
  };
}

export function disputeDetail(index = 1, overrides: Partial<DisputeDetail> = {}): DisputeDetail {
  const summary = disputeSummary(index);
  return {
    ...summary,
    status: 'pending',
    buyer_paid: true,
    dispute_raised: true,
    coin__decimal_places: 8,
    payment_method: 'Bank Transfer',
    rate: '1.00',
    fee_crypto: '0.00015000',
    amount_crypto: '0.01485000',
    created: '2026-03-05T11:00:00.000Z',
    payment_window_minutes: 30,
    payment_due: '2026-03-05T11:30:00.000Z',
    paid_at: '2026-03-05T11:10:00.000Z',
    payer_account: 'A. Liddell, Revolut',
    resolution: null,
    messages: [
      moderationMessage(1, { sender: null, text: 'Trade opened', channel: summary.channel }),
      moderationMessage(2, { sender: 'alice', text: 'Paid from Revolut', channel: summary.channel }),
      moderationMessage(3, { sender: 'bob', text: 'Nothing arrived', channel: summary.channel }),
    ],
    ...overrides,
  };
}

/** The moderation service, each call waiting until the test answers the oldest waiting call of its name. */
export function fakeModerationCalls() {
  const calls = scriptedService<keyof ModerationService>(['list', 'get', 'message', 'resolve']);
  return { ...calls, service: calls.methods as unknown as ModerationService };
}

/** The flow dependencies the desk binds, with the fakes above and a recorded toast list. */
export function moderationDeps(calls = fakeModerationCalls(), realtime = fakeRealtime()) {
  const notices: unknown[] = [];
  const deps = {
    moderation: calls.service,
    realtime: realtime.service,
    notify: (notice: unknown) => void notices.push(notice),
  } as unknown as FlowDeps;
  return { deps, calls, realtime, notices };
}

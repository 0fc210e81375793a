import { createActor } from 'xstate';
import type { OfferListItem } from '../../contracts/index.ts';
import { bindTraderProfile } from '../../src/machines/traderProfile/traderProfile.actors.ts';
import { selectCanRetry, selectProfile, selectProfileView, selectTakeRefusals } from '../../src/machines/traderProfile/traderProfile.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { ApiError, createApi } from '../../src/services/api.ts';
import { createTraderService } from '../../src/services/traders.ts';
import { flush } from '../support/machines.ts';
import { offerItem } from '../support/offers.ts';
import { traderProfile } from '../support/traders.ts';

/** The trader service over a fake fetch that answers `status` with `body` and records each request body. */
function tradersAnswering(answers: { status: number; body: unknown }[]) {
  const requests: unknown[] = [];
  const fetch = async (_url: unknown, init?: RequestInit) => {
    requests.push(JSON.parse(String(init?.body)));
    const { status, body } = answers.shift()!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const errors: string[] = [];
  const api = createApi({
    baseUrl: '/api/',
    getToken: () => 'token',
    onSessionExpired: () => {},
    onError: (message) => void errors.push(message),
    retryDelayMs: 1,
    maxRetryDelayMs: 1,
    fetch: fetch as typeof globalThis.fetch,
  });
  return { traders: createTraderService(api), requests, errors };
}

const start = (traders: FlowDeps['traders'], username = 'bob', takeOffer: (offer: OfferListItem) => void = () => {}) =>
  createActor(bindTraderProfile({ traders } as FlowDeps, takeOffer), { input: { username } }).start();
const standing = { completed_trades: 2, account_age_days: 40, two_factor: false };

describe('traderProfile', () => {
  it('loads the profile by username and shows it, then the trader\'s own standing', async () => {
    const profile = traderProfile();
    const { traders, requests } = tradersAnswering([
      { status: 200, body: { success: true, info: profile } },
      { status: 200, body: { success: true, info: standing } },
    ]);
    const actor = start(traders);
    expect(selectProfileView(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.waitFor(() => expect(selectProfileView(actor.getSnapshot())).toBe('loaded'));
    expect(selectProfile(actor.getSnapshot())).toEqual(profile);
    await vi.waitFor(() => expect(actor.getSnapshot().context.standing).toEqual(standing));
    expect(requests).toEqual([{ type: 'profile', username: 'bob' }, { type: 'standing' }]);
  });

  it("an offer's trade button opens that offer's Trade Preview, unless the trader misses its conditions", async () => {
    const picky = offerItem(4, { min_completed_trades: 5 });
    const open = offerItem(9);
    const { traders } = tradersAnswering([
      { status: 200, body: { success: true, info: traderProfile({ offers: [picky, open] }) } },
      { status: 200, body: { success: true, info: standing } },
    ]);
    const taken: OfferListItem[] = [];
    const actor = start(traders, 'bob', (offer) => void taken.push(offer));
    await vi.waitFor(() => expect(actor.getSnapshot().context.standing).toEqual(standing));
    expect(selectTakeRefusals(actor.getSnapshot())).toEqual(new Map([[4, 'This offer is for traders with at least 5 completed trades.']]));
    actor.send({ type: 'offer.take', offer: picky });
    actor.send({ type: 'offer.take', offer: open });
    expect(taken).toEqual([open]);
  });

  it('a standing that cannot load leaves every offer open to take: the server will say', async () => {
    const picky = offerItem(4, { min_completed_trades: 5 });
    const { traders, requests, errors } = tradersAnswering([
      { status: 200, body: { success: true, info: traderProfile({ offers: [picky] }) } },
      { status: 403, body: { success: false, info: 'Forbidden' } },
    ]);
    const taken: OfferListItem[] = [];
    const actor = start(traders, 'bob', (offer) => void taken.push(offer));
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    await flush();
    expect(selectProfileView(actor.getSnapshot())).toBe('loaded');
    expect(actor.getSnapshot().matches({ loaded: { standing: 'unknown' } }), 'the read failed').toBe(true);
    expect(errors, 'quietly').toEqual([]);
    expect(selectTakeRefusals(actor.getSnapshot()).size).toBe(0);
    actor.send({ type: 'offer.take', offer: picky });
    expect(taken).toEqual([picky]);
  });

  it('an unknown username (404) is "not found", quietly, with nothing to retry', async () => {
    const { traders, errors } = tradersAnswering([{ status: 404, body: { success: false, info: 'No such trader.' } }]);
    const actor = start(traders, 'nobody');
    await vi.waitFor(() => expect(selectProfileView(actor.getSnapshot())).toBe('notFound'));
    expect(errors).toEqual([]);
    expect(selectCanRetry(actor.getSnapshot())).toBe(false);
  });

  it('another failure is an error the trader may retry', async () => {
    const profile = traderProfile();
    const { traders, requests } = tradersAnswering([
      { status: 403, body: { success: false, info: 'Forbidden' } },
      { status: 200, body: { success: true, info: profile } },
      { status: 200, body: { success: true, info: standing } },
    ]);
    const actor = start(traders);
    await vi.waitFor(() => expect(selectProfileView(actor.getSnapshot())).toBe('error'));
    expect(selectCanRetry(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'profile.retry' });
    await vi.waitFor(() => expect(selectProfileView(actor.getSnapshot())).toBe('loaded'));
    expect(requests.filter((request) => (request as { type: string }).type === 'profile')).toHaveLength(2);
  });

  it('the service turns only a 404 into null', async () => {
    const { traders } = tradersAnswering([{ status: 409, body: { success: false, info: 'Conflict' } }]);
    await expect(traders.profile({ username: 'bob' })).rejects.toBeInstanceOf(ApiError);
    await flush();
  });
});

import { createActor } from 'xstate';
import { bindTraderProfile } from '../../src/machines/traderProfile/traderProfile.actors.ts';
import { selectCanRetry, selectProfile, selectProfileView } from '../../src/machines/traderProfile/traderProfile.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import { ApiError, createApi } from '../../src/services/api.ts';
import { createTraderService } from '../../src/services/traders.ts';
import { flush } from '../support/machines.ts';
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

const start = (traders: FlowDeps['traders'], username = 'bob') =>
  createActor(bindTraderProfile({ traders } as FlowDeps), { input: { username } }).start();

describe('traderProfile', () => {
  it('loads the profile by username and shows it', async () => {
    const profile = traderProfile();
    const { traders, requests } = tradersAnswering([{ status: 200, body: { success: true, info: profile } }]);
    const actor = start(traders);
    expect(selectProfileView(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await vi.waitFor(() => expect(selectProfileView(actor.getSnapshot())).toBe('loaded'));
    expect(requests).toEqual([{ type: 'profile', username: 'bob' }]);
    expect(selectProfile(actor.getSnapshot())).toEqual(profile);
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
    ]);
    const actor = start(traders);
    await vi.waitFor(() => expect(selectProfileView(actor.getSnapshot())).toBe('error'));
    expect(selectCanRetry(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'profile.retry' });
    await vi.waitFor(() => expect(selectProfileView(actor.getSnapshot())).toBe('loaded'));
    expect(requests).toHaveLength(2);
  });

  it('the service turns only a 404 into null', async () => {
    const { traders } = tradersAnswering([{ status: 409, body: { success: false, info: 'Conflict' } }]);
    await expect(traders.profile({ username: 'bob' })).rejects.toBeInstanceOf(ApiError);
    await flush();
  });
});

import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { User } from '../../contracts/security.ts';
import { bindSession } from '../../src/machines/session/session.actors.ts';
import { sessionMachine } from '../../src/machines/session/session.machine.ts';
import {
  selectInitial,
  selectIsRestoring,
  selectIsSignedIn,
  selectToken,
  selectUser,
} from '../../src/machines/session/session.selectors.ts';
import type { AccountService } from '../../src/services/accounts.ts';
import { readStoredSession, writeStoredSession, type StoredSession } from '../../src/services/storage.ts';
import { fakePush } from '../support/fakePushService.ts';
import {
  Coverage,
  afterEvent,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';

const bob: User = { username: 'bob', email: 'bob@example.com', websocket_token: 'ws-bob' };
const carol: User = { username: 'carol', email: 'carol@example.com', websocket_token: 'ws-carol' };
const stored: StoredSession = { token: 'token-carol', user: carol };
const signIn: ModelEvent = { type: 'session.signedIn', token: 'token-bob', user: bob };
/** The server keeps silent through the whole logout wait. */
const logoutTimedOut = afterEvent('logoutTimeout', 'session.signedIn.signingOut');

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  if (snapshot.matches('signedOut')) return [signIn, { type: 'session.expired' }, { type: 'session.logout' }];
  if (snapshot.matches({ signedIn: 'active' })) {
    return [{ type: 'session.logout' }, { type: 'session.expired' }, signIn];
  }
  if (snapshot.matches({ signedIn: 'signingOut' })) {
    return [
      { type: 'xstate.done.actor.logout', output: 'Logged out' },
      { type: 'xstate.error.actor.logout', error: new Error('An unknown error occurred') },
      logoutTimedOut,
      { type: 'session.expired' },
    ];
  }
  return [];
}

type Start = { name: string; stored: StoredSession | null };
const starts: Start[] = [
  { name: 'nothing stored', stored: null },
  { name: 'a stored session', stored },
];
const models = starts.map((start) => ({
  start,
  model: walk(sessionMachine, { events, input: { stored: start.stored }, simple: true }),
}));

/** The session actor as the composition root binds it (real storage), with the server call faked. */
async function run(start: Start, path: ModelPath, coverage?: Coverage) {
  localStorage.clear();
  if (start.stored) writeStoredSession(start.stored);
  const fakes = scriptedActors(['logout']);
  const clock = new SimulatedClock();
  // Permission denied: the push registration child settles at once and asks nothing; what counts here is the reset.
  const push = fakePush({ permission: 'denied' });
  const bound = bindSession({ logout: () => Promise.reject(new Error('replaced below')) } as unknown as AccountService, undefined, push.service);
  const actor = createActor(bound.provide({ actors: fakes.actors as never }), {
    clock,
    input: { stored: readStoredSession() },
    inspect: coverage?.inspect,
  }).start();

  // The oracle: signing in stores token and user; a logout or an expiry clears both, whatever the server answers.
  let current: StoredSession | null = start.stored;
  let signingOut = false;
  let expectedResets = 0;
  const expectedCalls: { id: string; input: unknown }[] = [];

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const { event } = step;
    if (index > 0) {
      if (event.type === 'session.signedIn' && !current) current = { token: 'token-bob', user: bob };
      else if (event.type === 'session.logout' && current && !signingOut) {
        signingOut = true;
        expectedCalls.push({ id: 'logout', input: { token: current.token } });
      } else if (event.type === 'session.expired' || event.type.startsWith('xstate.')) {
        // Expiry clears at once without asking the server; a logout clears whatever the server answered,
        // or once it has kept silent for the whole wait. Either way this device's push registration is reset.
        if (current) expectedResets += 1;
        current = null;
        signingOut = false;
      }
    }
    expect(selectIsRestoring(snapshot as never)).toBe(false);
    expect(selectIsSignedIn(snapshot as never)).toBe(current !== null);
    expect(selectToken(snapshot as never)).toBe(current?.token ?? null);
    expect(selectUser(snapshot as never)).toEqual(current?.user ?? null);
    expect(selectInitial(snapshot as never)).toBe(current ? current.user.username[0]!.toUpperCase() : 'U');
    expect(snapshot.hasTag('busy')).toBe(signingOut);
    // Local storage always mirrors memory: stored on sign-in, removed on logout and expiry.
    expect(readStoredSession()).toEqual(current);
    expect(push.spies.reset).toHaveBeenCalledTimes(expectedResets);
    expect(snapshot.children.pushRegistration === undefined, 'the push registration runs exactly while signed in').toBe(current === null);
  }, { clock });

  expect(fakes.calls).toEqual(expectedCalls);
  actor.stop();
}

describe.each(models)('session from $start.name: every path through the chart', ({ start, model }) => {
  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(start, path);
  });
});

describe('session chart coverage', () => {
  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(sessionMachine);
    for (const { start, model } of models) for (const path of model.paths) await run(start, path, coverage);
    const paths = models.reduce((n, { model }) => n + model.paths.length, 0);
    console.log(`${coverage.summary()} (${paths} paths from ${models.length} starting points)`);
    // The logout that never hears back (spec 4 "Session": cleared whether or not the call succeeds).
    expect(coverage.allTransitions).toContain(
      `session.signedIn.signingOut —${logoutTimedOut.type}#0→ session.signedOut`,
    );
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a starting point the walk leaves out', async () => {
    const coverage = new Coverage(sessionMachine);
    const [empty] = models;
    for (const path of empty!.model.paths) await run(empty!.start, path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual(['session.restoring —always#0→ session.signedIn']);
  });
});

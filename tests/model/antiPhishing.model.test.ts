import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { antiPhishingLogic } from '../../src/machines/antiPhishing/antiPhishing.actors.ts';
import { selectCanSubmit } from '../../src/machines/antiPhishing/antiPhishing.selectors.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

/** A code the contract takes (spaces around it are trimmed), one too short, and one with markup. */
const GOOD = ' Blue falcon-7 ';
const codeEvents: ModelEvent[] = [
  { type: 'field.change', name: 'antiPhishingCode', value: GOOD },
  { type: 'field.change', name: 'antiPhishingCode', value: 'abc' },
  { type: 'field.change', name: 'antiPhishingCode', value: '<b>code</b>' },
];
const passwordEvents: ModelEvent[] = [
  { type: 'field.change', name: 'password', value: 'my-password' },
  { type: 'field.change', name: 'password', value: '' },
];
/** Written independently of the contract: 4 to 20 letters, digits, spaces, - and _ once trimmed. */
const isGoodCode = (code: string) => /^[A-Za-z0-9 _-]{4,20}$/.test(code.trim());

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  switch (snapshot.value) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadStatus', output: { anti_phishing_code: null } },
        { type: 'xstate.done.actor.loadStatus', output: { anti_phishing_code: 'old code' } },
        { type: 'xstate.error.actor.loadStatus', error: new Error('Internet server error') },
      ];
    case 'unavailable':
      return [{ type: 'status.retry' }];
    case 'showing':
      return [{ type: 'set.start' }, { type: 'clear.start' }];
    case 'editing':
      return [...codeEvents, ...passwordEvents, { type: 'form.submit' }, { type: 'form.cancel' }];
    case 'saving':
      return [
        { type: 'xstate.done.actor.setCode', output: { anti_phishing_code: GOOD.trim() } },
        { type: 'xstate.error.actor.setCode', error: new Error('The password is not correct.') },
      ];
    // The password confirmation (its own chart, tests/model/passwordConfirm.model.test.ts) ends one of two ways.
    case 'confirmingClear':
      return [
        { type: 'xstate.done.actor.confirmClear', output: { confirmed: true, result: { anti_phishing_code: null } } },
        { type: 'xstate.done.actor.confirmClear', output: { confirmed: false } },
      ];
    default:
      return [];
  }
}

const model = walk(antiPhishingLogic, { events });
const formStates = ['editing', 'saving'];

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadStatus', 'setCode', 'confirmClear']);
  const notices: Notice[] = [];
  const actor = createActor(
    antiPhishingLogic.provide({ actors: fakes.actors as never, actions: { notify: (_, notice) => void notices.push(notice) } }),
    { inspect: coverage?.inspect },
  ).start();
  const expectedCalls: { id: string; input: unknown }[] = [];
  const expectedNotices: Notice[] = [];
  let current: string | null = null;
  let previousState: string | undefined;
  await replay(actor, path, fakes, (snapshot, { event }, index) => {
    const state = snapshot.value as string;
    const { draft, password } = snapshot.context;
    const entered = index === 0 || state !== previousState;
    if (entered && state === 'loading') expectedCalls.push({ id: 'loadStatus', input: undefined });
    if (entered && state === 'saving') {
      expect(isGoodCode(draft) && password !== '').toBe(true);
      expectedCalls.push({ id: 'setCode', input: { anti_phishing_code: draft.trim(), password } });
    }
    if (entered && state === 'confirmingClear') expectedCalls.push({ id: 'confirmClear', input: undefined });
    if (event.type === 'xstate.done.actor.loadStatus') current = (event.output as { anti_phishing_code: string | null }).anti_phishing_code;
    if (event.type === 'xstate.done.actor.setCode') {
      current = GOOD.trim();
      expectedNotices.push({ title: 'Anti-phishing code saved', type: 'success' });
    }
    if (event.type === 'xstate.done.actor.confirmClear' && (event.output as { confirmed: boolean }).confirmed) {
      current = null;
      expectedNotices.push({ title: 'Anti-phishing code removed', type: 'success' });
    }
    // There is nothing to remove without a code.
    if (previousState === 'showing' && event.type === 'clear.start') expect(state).toBe(current === null ? 'showing' : 'confirmingClear');
    // Removing asks only for the password, in the child: the form of a new code stays empty.
    if (state === 'confirmingClear') expect(draft).toBe('');

    expect(snapshot.context.current).toBe(current);
    expect(snapshot.hasTag('busy')).toBe(['loading', 'saving'].includes(state));
    // The password lives only inside a change; a refusal asks for it again; a form opens empty.
    if (!formStates.includes(state)) expect({ draft, password }).toEqual({ draft: '', password: '' });
    if (event.type.startsWith('xstate.error.actor.') && formStates.includes(state)) expect(password).toBe('');
    if (entered && state === 'editing' && previousState === 'showing') {
      expect({ draft, password }).toEqual({ draft: '', password: '' });
    }
    const canSubmit = state === 'editing' && isGoodCode(draft) && password !== '';
    expect(selectCanSubmit(snapshot as never)).toBe(canSubmit);
    previousState = state;
  });
  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  actor.stop();
}

describe('anti-phishing code: every path through the chart', () => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(20);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(antiPhishingLogic);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(antiPhishingLogic);
    for (const path of model.paths.filter((path) => !path.steps.some(({ event }) => event.type === 'clear.start'))) await run(path, coverage);
    expect(coverage.missingStates(), 'Without removing the code, its confirmation is never reached').toEqual(['antiPhishing.confirmingClear']);
    expect(coverage.missingTransitions()).toEqual([
      'antiPhishing.showing —clear.start#0→ antiPhishing.confirmingClear',
      'antiPhishing.confirmingClear —xstate.done.actor.confirmClear#0→ antiPhishing.showing',
      'antiPhishing.confirmingClear —xstate.done.actor.confirmClear#1→ antiPhishing.showing',
    ]);
  });
});

import { createActor, setup, type AnyActorRef, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { codeEntryMachine, type CodeEntryReport } from '../../src/machines/codeEntry/codeEntry.machine.ts';
import { codeEntryOf, selectCode, selectError, selectIsComplete } from '../../src/machines/codeEntry/codeEntry.selectors.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';

/** The code's validation message, written out here rather than read from the contracts. */
const CODE_MESSAGE = 'Please enter a valid 6-digit verification code';

/** What a trader types: letters and a dash among digits, exactly six, one too many, nothing. */
const typed = ['12a3-45', '123456', '1234567', ''];

const events = (): ModelEvent[] => [...typed.map((value) => ({ type: 'code.change', value })), { type: 'code.submit' }];

/**
 * The walk runs the chart on its own, where there is no parent to report to (`sendParent` refuses to
 * resolve without one), so only for the walk the two reports do nothing. States, guards and context are
 * the chart's; the replay runs the real chart, reports included, as the child of a flow.
 */
const model = walk(codeEntryMachine.provide({ actions: { reportEntered: () => {}, reportIncomplete: () => {} } }), {
  events,
  simple: true,
});

/** A code field keeps digits only, up to 6. Written without the chart's expression. */
function asTyped(value: string): string {
  let code = '';
  for (const char of value) if (char >= '0' && char <= '9' && code.length < 6) code += char;
  return code;
}

/**
 * Replays a path on a real code entry, invoked by a flow that records every event it is sent, as signup
 * and reset invoke it. The events go straight to the child, as the screens send them.
 */
async function run(path: ModelPath, coverage?: Coverage) {
  const reports: EventObject[] = [];
  const flow = setup({
    types: { events: {} as { type: 'code.entered'; code: string } | { type: 'code.incomplete' } },
    actors: { codeEntry: codeEntryMachine },
    actions: { record: ({ event }) => void reports.push(event) },
  }).createMachine({
    id: 'recordingFlow',
    invoke: { id: 'codeEntry', src: 'codeEntry' },
    on: { '*': { actions: 'record' } },
  });
  const parent = createActor(flow, { inspect: coverage?.inspect }).start();
  const child = codeEntryOf(parent.getSnapshot())!;
  const entry = { send: (event: EventObject) => child.send(event as never), getSnapshot: () => child.getSnapshot() } as unknown as AnyActorRef;

  // The oracle: the code as the rule keeps it, whether a submit found it incomplete, what the flow heard.
  let code = '';
  let revealed = false;
  const expectedReports: CodeEntryReport[] = [];

  await replay(entry, path, scriptedActors([]), (snapshot: AnyMachineSnapshot, step, index) => {
    const { event } = step;
    if (index > 0 && event.type === 'code.change') code = asTyped(String(event.value));
    const complete = code.length === 6;
    if (index > 0 && event.type === 'code.submit') {
      if (complete) expectedReports.push({ type: 'code.entered', code });
      else {
        expectedReports.push({ type: 'code.incomplete' });
        revealed = true;
      }
    }

    expect(selectCode(snapshot as never), 'the code shown').toBe(code);
    expect(selectIsComplete(snapshot as never), 'complete').toBe(complete);
    expect(snapshot.hasTag('complete'), 'tag complete').toBe(complete);
    expect(selectError(snapshot as never), 'message').toBe(revealed && !complete ? CODE_MESSAGE : undefined);
    expect(reports, 'what the flow was told').toEqual(expectedReports);
  });

  expect(parent.getSnapshot().status).toBe('active');
  parent.stop();
}

describe('code entry: every path through the chart', () => {
  it('has a graph to walk', () => {
    // code '', '12345' or '123456', each with the message revealed or not
    expect(model.states).toBe(6);
    expect(model.paths.length).toBeGreaterThan(model.edges);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path);
  });

  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(codeEntryMachine);
    for (const path of model.paths) await run(path, coverage);
    console.log(`${coverage.summary()} (${model.paths.length} paths over ${model.states} snapshots, ${model.edges} edges)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a submit the walk never makes with six digits', async () => {
    const coverage = new Coverage(codeEntryMachine);
    const neverCompleteSubmit = model.paths.filter(
      (path) => !path.steps.some((step, index) => step.event.type === 'code.submit' && path.steps[index - 1]!.state.context.code.length === 6),
    );
    for (const path of neverCompleteSubmit) await run(path, coverage);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual(['codeEntry.complete —code.submit#0→ (stays)']);
  });
});

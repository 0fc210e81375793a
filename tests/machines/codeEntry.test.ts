import { createActor, setup, type EventObject } from 'xstate';
import { codeEntryMachine } from '../../src/machines/codeEntry/codeEntry.machine.ts';
import { codeEntryOf, selectCode, selectError, selectIsComplete } from '../../src/machines/codeEntry/codeEntry.selectors.ts';

/** The code's validation message, written out here rather than read from the contracts. */
const CODE_MESSAGE = 'Please enter a valid 6-digit verification code';

/**
 * A tiny flow that asks for a code the way signup and reset do: while `asking`, it invokes the code entry
 * as `codeEntry`; `leave`/`ask` leave and re-enter that state. Every event the code entry sends it is recorded.
 */
function startFlow() {
  const reports: EventObject[] = [];
  const flow = setup({
    types: { events: {} as { type: 'leave' } | { type: 'ask' } | { type: 'code.entered'; code: string } | { type: 'code.incomplete' } },
    actors: { codeEntry: codeEntryMachine },
    actions: { record: ({ event }) => void reports.push(event) },
  }).createMachine({
    id: 'flow',
    initial: 'asking',
    on: { 'code.entered': { actions: 'record' }, 'code.incomplete': { actions: 'record' } },
    states: {
      asking: { invoke: { id: 'codeEntry', src: 'codeEntry' }, on: { leave: 'away' } },
      away: { on: { ask: 'asking' } },
    },
  });
  const actor = createActor(flow).start();
  const entry = () => {
    const ref = codeEntryOf(actor.getSnapshot());
    if (!ref) throw new Error('the flow is not asking for a code');
    return ref;
  };
  const type = (value: string) => entry().send({ type: 'code.change', value });
  const submit = () => entry().send({ type: 'code.submit' });
  const code = () => selectCode(entry().getSnapshot());
  const complete = () => selectIsComplete(entry().getSnapshot());
  const error = () => selectError(entry().getSnapshot());
  return { actor, reports, entry, type, submit, code, complete, error };
}

describe('code entry (one rule for every 6-digit code)', () => {
  it('starts empty, incomplete and without a message', () => {
    const { code, complete, error, reports } = startFlow();
    expect(code()).toBe('');
    expect(complete()).toBe(false);
    expect(error()).toBeUndefined();
    expect(reports).toEqual([]);
  });

  it('keeps digits only, at most six, and is complete at six', () => {
    const { type, code, complete, entry, reports } = startFlow();
    type('12a3-45');
    expect(code()).toBe('12345');
    expect(complete()).toBe(false);
    type('123456');
    expect(code()).toBe('123456');
    expect(complete()).toBe(true);
    expect(entry().getSnapshot().hasTag('complete')).toBe(true);
    type('1234567');
    expect(code()).toBe('123456');
    expect(complete()).toBe(true);
    type(' 9 8 7 6 5 4 ');
    expect(code()).toBe('987654');
    type('abc');
    expect(code()).toBe('');
    expect(complete()).toBe(false);
    expect(entry().getSnapshot().hasTag('complete')).toBe(false);
    expect(reports, 'typing tells the flow nothing').toEqual([]);
  });

  it('shows no message while typing, before any submit', () => {
    const { type, error } = startFlow();
    type('12');
    expect(error()).toBeUndefined();
    type('12x');
    expect(error()).toBeUndefined();
  });

  it('an incomplete submit tells the flow "code.incomplete" and reveals the message', () => {
    const { type, submit, error, reports } = startFlow();
    type('124');
    submit();
    expect(reports).toEqual([{ type: 'code.incomplete' }]);
    expect(error()).toBe(CODE_MESSAGE);
  });

  it('an empty submit is incomplete too', () => {
    const { submit, error, reports } = startFlow();
    submit();
    expect(reports).toEqual([{ type: 'code.incomplete' }]);
    expect(error()).toBe(CODE_MESSAGE);
  });

  it('a complete submit hands the code to the flow and shows no message', () => {
    const { type, submit, error, reports } = startFlow();
    type('2468101');
    submit();
    expect(reports).toEqual([{ type: 'code.entered', code: '246810' }]);
    expect(error()).toBeUndefined();
  });

  it('once revealed, the message follows the code: gone at six digits, back below', () => {
    const { type, submit, error, reports } = startFlow();
    type('12');
    submit();
    expect(error()).toBe(CODE_MESSAGE);
    type('123');
    expect(error()).toBe(CODE_MESSAGE);
    type('123456');
    expect(error()).toBeUndefined();
    type('12345');
    expect(error()).toBe(CODE_MESSAGE);
    type('');
    expect(error()).toBe(CODE_MESSAGE);
    type('654321');
    submit();
    expect(reports).toEqual([{ type: 'code.incomplete' }, { type: 'code.entered', code: '654321' }]);
  });

  it('every submit reports, each with the code as it is then', () => {
    const { type, submit, reports } = startFlow();
    type('111111');
    submit();
    submit();
    type('222');
    submit();
    type('222222');
    submit();
    expect(reports).toEqual([
      { type: 'code.entered', code: '111111' },
      { type: 'code.entered', code: '111111' },
      { type: 'code.incomplete' },
      { type: 'code.entered', code: '222222' },
    ]);
  });

  it('a new entry starts empty: leaving and coming back gives a fresh child', () => {
    const { actor, type, submit, entry, code, error, complete, reports } = startFlow();
    const first = entry();
    type('123');
    submit();
    expect(error()).toBe(CODE_MESSAGE);
    actor.send({ type: 'leave' });
    expect(codeEntryOf(actor.getSnapshot())).toBeUndefined();
    expect(first.getSnapshot().status).toBe('stopped');
    actor.send({ type: 'ask' });
    expect(entry()).not.toBe(first);
    expect(code()).toBe('');
    expect(complete()).toBe(false);
    expect(error()).toBeUndefined();
    type('999999');
    submit();
    expect(reports).toEqual([{ type: 'code.incomplete' }, { type: 'code.entered', code: '999999' }]);
  });

  it('a stopped entry tells the flow nothing more', () => {
    const { actor, type, entry, reports } = startFlow();
    const first = entry();
    type('123456');
    actor.send({ type: 'leave' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    first.send({ type: 'code.submit' });
    warn.mockRestore();
    expect(reports).toEqual([]);
  });
});

import { assign, not, sendParent, setup } from 'xstate';

/** Email codes and authenticator codes alike: six digits. */
export const CODE_LENGTH = 6;

export type CodeEntryContext = {
  code: string;
  /** Set by a submit with fewer than six digits, so the message shows. */
  revealed: boolean;
};
export type CodeEntryEvent = { type: 'code.change'; value: string } | { type: 'code.submit' };
/** What the code entry tells the chart that invoked it when the trader submits. */
export type CodeEntryReport = { type: 'code.entered'; code: string } | { type: 'code.incomplete' };

/**
 * The one code entry of every flow that asks for a code (signup, password reset, a two-factor sign-in,
 * two-factor enrolment), invoked by those charts as their child: one rule for what a code is. The trader
 * types (digits kept, at most six); on submit the parent is told the code once all six are there, or that
 * it is incomplete (and the message shows). A new entry starts empty, so a refused code is never resent.
 */
export const codeEntryMachine = setup({
  types: { context: {} as CodeEntryContext, events: {} as CodeEntryEvent },
  actions: {
    keepDigits: assign((_, params: { value: string }) => ({ code: params.value.replace(/\D/g, '').slice(0, CODE_LENGTH) })),
    reveal: assign({ revealed: true }),
    reportEntered: sendParent(({ context }): CodeEntryReport => ({ type: 'code.entered', code: context.code })),
    reportIncomplete: sendParent((): CodeEntryReport => ({ type: 'code.incomplete' })),
  },
  guards: {
    isComplete: ({ context }) => context.code.length === CODE_LENGTH,
  },
}).createMachine({
  id: 'codeEntry',
  description: 'A 6-digit code from an email or an authenticator app: digits only, at most six, submitted once all six are there.',
  context: { code: '', revealed: false },
  initial: 'incomplete',
  on: {
    'code.change': { actions: { type: 'keepDigits', params: ({ event }) => ({ value: event.value }) } },
  },
  states: {
    incomplete: {
      description: 'Fewer than six digits: submitting shows "Please enter a valid 6-digit verification code".',
      always: { guard: 'isComplete', target: 'complete' },
      on: { 'code.submit': { actions: ['reveal', 'reportIncomplete'] } },
    },
    complete: {
      tags: ['complete'],
      description: 'Six digits: submitting hands the code to the flow.',
      always: { guard: not('isComplete'), target: 'incomplete' },
      on: { 'code.submit': { actions: 'reportEntered' } },
    },
  },
});

/** The code entry as a chart that invokes it declares it (its file imports only types); bound in its route. */
export type CodeEntryLogic = typeof codeEntryMachine;

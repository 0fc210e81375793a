import type { PasswordConfirmOutput } from '../passwordConfirm/passwordConfirm.machine.ts';
import type { Notice } from './notify.ts';

/**
 * The pieces the cards of /settings/security (two-factor, the anti-phishing code, the withdrawal allowlist, the
 * sign-in history) are built from, so what they do alike is written once while each chart stays one file the
 * Stately visualizer loads on its own: reading the card's status (and again after a failure), a form whose
 * change the account's password goes with, and a change the password alone confirms (the passwordConfirm
 * child). The names a chart declares in `setup` are the ones used here: `setField` and `clearForm` for a form;
 * `keepConfirmed`, `notify` and the guards of `confirmedChangeGuards` for a confirmed change.
 */

/** The events of a card's form: a field typed, the submit. */
export type CardFormEvent<Field extends string> = { type: 'field.change'; name: Field; value: string } | { type: 'form.submit' };

/**
 * `loading`: the card's status is read by the call `src` (invoked as `src`); `onDone` keeps it, a failure
 * leads to `unavailable`.
 */
export const readingStatus = <const Src extends string, const OnDone>(src: Src, onDone: OnDone, description?: string) => ({
  tags: ['busy' as const],
  ...(description === undefined ? {} : { description }),
  invoke: { id: src, src, onDone, onError: { target: 'unavailable' } },
});

/** `unavailable`: what the card shows (`what`) could not be read; the trader's `retry` reads it again. */
export const unreadable = <const Retry extends string>(what: string, retry: Retry) => ({
  description: `${what} could not be read; the trader may try again.`,
  on: { [retry]: { target: 'loading' } } as Record<Retry, { target: 'loading' }>,
});

type Cancelled = { target: string; actions: 'clearForm' };

/**
 * A form of the card, the password among its fields: each field is kept as typed (`setField`); `submit` is
 * the chart's transition on "form.submit" (its rule, and the state that sends); `cancel` names the event that
 * leaves the form, and for which state: the form is cleared.
 */
export const passwordForm = <const Submit, const Cancel extends string>(description: string, submit: Submit, cancel: Record<Cancel, string>) => ({
  tags: ['form' as const],
  description,
  on: {
    'field.change': { actions: { type: 'setField' as const, params: <E extends { name: string; value: string }>({ event }: { event: E }) => event } },
    'form.submit': submit,
    ...(Object.fromEntries(Object.entries(cancel).map(([event, back]) => [event, { target: back, actions: 'clearForm' }])) as Record<Cancel, Cancelled>),
  },
});

/**
 * The form's call `src` (invoked as `src`) with what `input` takes of the form: the form stays on screen, busy,
 * until the answer (`onDone`) or the refusal (`onError`, back to the form: the toast says why).
 */
export const sendingForm = <const Src extends string, Input, const Outcomes>(src: Src, input: Input, outcomes: Outcomes) => ({
  tags: ['busy' as const, 'form' as const],
  invoke: { id: src, src, input, ...outcomes },
});

type Confirmed<Result> = { event: { output: PasswordConfirmOutput<Result> } };

/**
 * A change the password alone confirms: the passwordConfirm child (`src`, invoked as `src`, bound to the
 * change's call) asks for it. A confirmed change is kept (`keepConfirmed`) and told (`done`); a cancelled one
 * changes nothing (`cancelled` says what stays). Either way the card goes back to `back`.
 */
export const confirmingWithPassword = <const Src extends string>(
  src: Src,
  description: string,
  { back, done, cancelled }: { back: string; done: Notice; cancelled: string },
) => ({
  description,
  tags: ['form' as const],
  invoke: {
    id: src,
    src,
    onDone: [
      {
        guard: { type: 'isConfirmed' as const, params: <Result>({ event }: Confirmed<Result>) => event.output },
        target: back,
        actions: [
          { type: 'keepConfirmed' as const, params: <Result>({ event }: Confirmed<Result>) => event.output },
          { type: 'notify' as const, params: done },
        ],
      },
      { target: back, description: cancelled },
    ],
  },
});

/** The guard of a confirmed change, for the chart's `setup`. */
export const confirmedChangeGuards = {
  isConfirmed: (_: unknown, params: PasswordConfirmOutput) => params.confirmed,
};

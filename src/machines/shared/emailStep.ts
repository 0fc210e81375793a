/**
 * The email step that opens sign-up and the password reset, before the shared code entry: the address is typed,
 * checked, and a code is mailed to it; past this step the address is read-only. Both charts are built from these
 * pieces, so the step is written once while each chart stays one file the Stately visualizer loads on its own.
 * The names a chart declares in `setup` are the ones used here: `setField`, `revealErrors`, `startStep`,
 * `notify`, and the guards `isEmailValid` and those of `emailStepGuards`.
 */

/** The context of a form whose email is proven by a code: its fields as typed, the code, whether messages show. */
export type EmailProvenContext<Field extends string> = Record<Field, string> & {
  /** The emailed code, once the code entry handed it over. */
  code: string;
  showErrors: boolean;
};
/** The events of the email step, and of the forms after it: a field typed, a submit, back to the email. */
export type EmailStepEvent<Field extends string> =
  | { type: 'field.change'; name: Field; value: string }
  | { type: 'form.submit' }
  | { type: 'email.edit' };

type FieldChange<Field extends string> = { event: { name: Field; value: string } };

/** The chart's root `field.change`: any field but the email, once the code was sent to it. */
export const editAfterEmailStep = <Field extends string>() => ({
  guard: { type: 'canEditAfterEmailStep' as const, params: ({ event }: FieldChange<Field>) => ({ name: event.name }) },
  description: 'Past the email step the address is read-only: the code was sent to it.',
  actions: { type: 'setField' as const, params: ({ event }: FieldChange<Field>) => ({ name: event.name, value: event.value }) },
});

/** `enteringEmail`: every field may change; a valid address goes to `requestingCode`, else the message shows. */
export const enteringEmail = <Field extends string>() => ({
  tags: ['form' as const],
  entry: 'startStep' as const,
  on: {
    'field.change': {
      actions: { type: 'setField' as const, params: ({ event }: FieldChange<Field>) => ({ name: event.name, value: event.value }) },
    },
    'form.submit': [
      {
        guard: { type: 'isEmailValid' as const, params: ({ context }: { context: { email: string } }) => ({ value: context.email }) },
        target: 'requestingCode',
      },
      { actions: 'revealErrors' as const, description: 'Show "Please enter a valid email address".' },
    ],
  },
});

/**
 * `requestingCode`: the call `src` (invoked as `src`) mails a code to the address; its answer shows as the
 * "OTP Sent" toast and the chart goes on to `target`; a refusal goes back to the email (the toast says why).
 */
export const requestingCode = <const Src extends string>(src: Src, target: string, description?: string) => ({
  tags: ['busy' as const],
  ...(description === undefined ? {} : { description }),
  invoke: {
    id: src,
    src,
    input: ({ context }: { context: { email: string } }) => ({ email: context.email }),
    onDone: {
      target,
      description: 'The server mailed a code; its answer shows as the "OTP Sent" toast.',
      actions: { type: 'notify' as const, params: ({ event }: { event: { output: string } }) => ({ title: 'OTP Sent', description: event.output }) },
    },
    onError: { target: 'enteringEmail' },
  },
});

/** The step's guard of the root `field.change`, for the chart's `setup`. */
export const emailStepGuards = {
  canEditAfterEmailStep: (_: unknown, params: { name: string }) => params.name !== 'email',
};

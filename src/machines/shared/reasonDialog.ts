/**
 * The written reason a dialog asks for before it sends (a dispute's settlement, a withdrawal's rejection, a staff
 * action on a trader, a dispute raised), so what these dialogs do alike is written once while each chart stays one file the Stately
 * visualizer loads on its own. The names a chart declares in `setup` are the ones used here: the action
 * `setReason`, the guard `isReasonWritten` (the chart's rule for a reason), and `reason` in its context.
 */

type SetReason = { actions: { type: 'setReason'; params: (args: { event: { value: string } }) => { value: string } } };
type WhenWritten<Target extends string> = {
  guard: { type: 'isReasonWritten'; params: (args: { context: { reason: string } }) => { reason: string } };
  target: Target;
};

/**
 * The dialog's transitions while the reason is written: `change` keeps the text as typed, `submit` goes on to
 * `target` only once the reason is written (until then the button stays disabled), "dialog.dismiss" closes it
 * with `dismiss`.
 */
export const writingReason = <const Change extends string, const Submit extends string, const Target extends string, const Dismiss>(
  { change, submit }: { change: Change; submit: Submit },
  target: Target,
  dismiss: Dismiss,
) => {
  const setReason: SetReason = { actions: { type: 'setReason', params: ({ event }) => ({ value: event.value }) } };
  const whenWritten: WhenWritten<Target> = {
    guard: { type: 'isReasonWritten', params: ({ context }) => ({ reason: context.reason }) },
    target,
  };
  return {
    ...({ [change]: setReason } as Record<Change, SetReason>),
    ...({ [submit]: whenWritten } as Record<Submit, WhenWritten<Target>>),
    'dialog.dismiss': dismiss,
  };
};

/**
 * A read whose answer the chart keeps (a page's first read, a form's choices, the prices), so a chart says only
 * which call, which of its actions keeps the answer, and where it goes either way, while staying one file the
 * Stately visualizer loads on its own. The chart declares the call and the keeping action in its `setup`.
 */

/** The action `type` that keeps a call's answer, handed it as `{ [key]: answer }`. */
export const keepAnswer = <const Type extends string, const Key extends string>(type: Type, key: Key) => ({
  type,
  params: <Output>({ event }: { event: { output: Output } }) => ({ [key]: event.output }) as Record<Key, Output>,
});

/**
 * The `invoke` of such a read: the call `src`, invoked as `src`; its answer is kept by `keep` (the action and
 * the key it takes the answer as) on the way to `done`; a failure goes to `failed`, and `failure` says what
 * shows then.
 */
export const readInto = <const Src extends string, const Type extends string, const Key extends string>(
  src: Src,
  [type, key]: readonly [Type, Key],
  { done, failed, failure }: { done: string; failed: string; failure: string },
) => ({
  id: src,
  src,
  onDone: { target: done, actions: keepAnswer(type, key) },
  onError: { target: failed, description: failure },
});

import { useCallback, useEffect, useState, type ComponentType } from 'react';

/**
 * A component fetched once the page around it has been drawn and the browser is idle, not with it (a dropdown's
 * panel, a dialog): `View` is null until its code is here, and `ready()` resolves once it is, so an action that shows
 * it (a click in the first moments) waits for it rather than showing nothing. `load` must be the same function on
 * every render. Asked for from the first commit's effects, the panel and the dialog added their imports to the task
 * that starts the page's charts, already one of a signed-in page's longest on a phone (bench/README.md "The
 * signed-in pages' long tasks").
 */
export function useLoadedLater<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  const [View, setView] = useState<ComponentType<Props> | null>(null);
  const ready = useCallback(() => load().then((view) => setView(() => view)), [load]);
  useEffect(() => whenIdle(() => void ready()), [ready]);
  return { View, ready };
}

/** Runs `task` once the browser is idle (a task later where it cannot tell: Safari); the returned function cancels it. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(task, 0);
    return () => clearTimeout(timer);
  }
  const id = requestIdleCallback(task);
  return () => cancelIdleCallback(id);
}

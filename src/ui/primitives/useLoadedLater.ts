import { useCallback, useEffect, useState, type ComponentType } from 'react';

/**
 * A component fetched once the page around it has been drawn, not with it (a dropdown's panel, a dialog): `View` is
 * null until its code is here, and `ready()` resolves once it is, so an action that shows it (a click in the first
 * moments) waits for it rather than showing nothing. `load` must be the same function on every render.
 */
export function useLoadedLater<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  const [View, setView] = useState<ComponentType<Props> | null>(null);
  const ready = useCallback(() => load().then((view) => setView(() => view)), [load]);
  useEffect(() => void ready(), [ready]);
  return { View, ready };
}

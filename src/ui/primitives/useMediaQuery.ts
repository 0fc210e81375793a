import { useCallback, useSyncExternalStore } from 'react';

/** From this width the app is laid out for a laptop rather than a phone: Panda's `md` breakpoint (48rem, 768 px). */
export const WIDE_SCREEN = 'screen and (min-width: 48rem)';

/** Whether `query` matches now; false where the browser cannot say (jsdom has no matchMedia). */
export const matchesMedia = (query: string): boolean =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;

/** `matchesMedia(query)`, kept current as the window changes (a phone turned, a window resized). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => matchesMedia(query), () => false);
}

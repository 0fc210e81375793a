import { RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';

/** Renders a screen inside a throwaway router, since links need one. */
export async function renderWithRouter(ui: () => ReactNode, path = '/') {
  const rootRoute = createRootRoute();
  const screen = createRoute({ getParentRoute: () => rootRoute, path, component: () => <>{ui()}</> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([screen]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  let result!: RenderResult;
  await act(async () => {
    result = render(<RouterProvider router={router} />);
    await router.load();
  });
  return { ...result, router };
}

/**
 * Pretends the window is a phone's (below md) or a laptop's, as the browser's matchMedia would answer; jsdom has
 * none, and without it the app lays out for a phone. `forgetViewport` takes it back.
 */
export function pretendViewport(wide: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: wide && /min-width: 48rem/.test(query),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  })) as unknown as typeof window.matchMedia;
}
export const forgetViewport = () => void delete (window as { matchMedia?: unknown }).matchMedia;

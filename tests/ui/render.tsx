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

/**
 * The pages rendered to HTML at build time (vite.config.ts `routePages`), so that a phone on a slow network shows
 * the page as soon as the HTML and the stylesheet arrive, not only once the app's JavaScript has downloaded and
 * run. The same routes and components as in the browser; `src/app.tsx` then renders the live page in its place
 * (createRoot replaces what #root holds). Nothing here is called: services exist only for the charts the
 * components bind, which are not started in a server render.
 */
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createActor } from 'xstate';
import type { FlowDeps } from './machines/shared/deps.ts';
import { sessionMachine } from './machines/session/session.machine.ts';
import { createAppRouter } from './router.ts';

/** Any service method: a render that called one would be a bug, and says which. */
const notDuringPrerender = (name: string) => () => {
  throw new Error(`${name} was called while prerendering`);
};
const service = (name: string) => new Proxy({}, { get: (_target, member) => notDuringPrerender(`${name}.${String(member)}`) });

const deps = new Proxy({} as FlowDeps, {
  get: (_target, key) => {
    if (key === 'inspect') return undefined;
    if (key === 'appConfig') return Promise.resolve(null);
    return typeof key === 'string' && /^[a-z]+$/.test(key) && !['navigate', 'visit', 'notify', 'signIn', 'copyText', 'currentUsername'].includes(key)
      ? service(key)
      : notDuringPrerender(String(key));
  },
});

/**
 * Who a page is drawn for: a signed-out visitor (login, signup, forgot password), or a signed-in trader not yet
 * known, for whom the product's layout and the page are drawn as they look before anything of theirs has loaded
 * (the top bar with the placeholder initial, the page's heading, its empty lists), which the app then fills.
 */
export type PrerenderAudience = 'signed-out' | 'signed-in';

/** The trader a signed-in page is drawn for before the app knows who it is: no name, no token, nothing of theirs. */
const NOT_YET_KNOWN = { username: '', email: '', websocket_token: '' };

/** The HTML of `url`'s page as its audience first sees it; undefined when a route guard sends that audience elsewhere. */
export async function prerender(url: string, audience: PrerenderAudience): Promise<string | undefined> {
  const stored = audience === 'signed-in' ? { token: '', user: NOT_YET_KNOWN } : null;
  const session = createActor(sessionMachine, { input: { stored } }).start();
  try {
    const router = createAppRouter({ session, deps }, createMemoryHistory({ initialEntries: [url] }));
    await router.load();
    if (router.state.location.pathname !== url || router.state.matches.some((match) => match.status !== 'success')) return undefined;
    return renderToString(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
  } finally {
    session.stop();
  }
}

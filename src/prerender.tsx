/**
 * The signed-out pages (login, signup, forgot password) rendered to HTML at build time (vite.config.ts
 * `routePages`), so that a phone on a slow network shows the page as soon as the HTML and the stylesheet arrive,
 * not only once the app's JavaScript has downloaded and run. The same routes and components as in the browser,
 * with a signed-out session; `src/main.tsx` then renders the live page in its place (createRoot replaces what
 * #root holds). Nothing here is called: services exist only for the charts the components bind, which are not
 * started in a server render.
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

/** The HTML of `url`'s page as a signed-out visitor first sees it. */
export async function prerender(url: string): Promise<string> {
  const session = createActor(sessionMachine, { input: { stored: null } }).start();
  const router = createAppRouter({ session, deps }, createMemoryHistory({ initialEntries: [url] }));
  await router.load();
  const html = renderToString(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  session.stop();
  return html;
}

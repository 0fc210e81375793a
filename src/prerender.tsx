/**
 * The pages rendered to HTML at build time (vite.config.ts `routePages`), so that a phone on a slow network shows
 * the page as soon as the HTML and the stylesheet arrive, not only once the app's JavaScript has downloaded and
 * run. The same routes and components as in the browser; `src/app.tsx` then renders the live page in its place
 * (createRoot replaces what #root holds). Nothing here is called: services exist only for the charts the
 * components bind, which are not started in a server render.
 */
import { i18n } from '@lingui/core';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createActor } from 'xstate';
import type { FlowDeps } from './machines/shared/deps.ts';
import { sessionMachine } from './machines/session/session.machine.ts';
import { createAppRouter } from './router.ts';
import { LocaleProvider } from './i18n/LocaleProvider.tsx';
import { messages as english } from './locales/en.po';

// Drawn in English, the source language: a visitor whose language is another sees the page once the app has drawn it
// in theirs (src/boot/locale.js hides the English until then; docs/i18n.md "Before the first paint").
i18n.loadAndActivate({ locale: 'en', messages: english });

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
 * (the top bar, the page's heading, its empty lists; their name filled in by the page's loader), which the app then
 * fills.
 */
export type PrerenderAudience = 'signed-out' | 'signed-in';

/**
 * The trader a signed-in page is drawn for before the app knows who it is: nothing of theirs, and in place of their
 * name two characters of Unicode's private use area that no page text holds, so that where the name (and its first
 * letter, the avatar's) ends up in the markup can be found and left as a slot (storedUserSlots).
 */
const NAME_MARK = '\uE000\uE001';
const INITIAL_MARK = NAME_MARK.charAt(0).toUpperCase();
const NOT_YET_KNOWN = { username: NAME_MARK, email: '', websocket_token: '' };

/**
 * The name and initial left as empty `data-stored-user` slots, which the page's loader fills from the session the
 * browser keeps (src/boot/after-paint.js) before the page shows: the trader's page is drawn with their name from the
 * first paint, and the live page then draws the same text over it (no larger paint, so the largest stays the first).
 * In attribute values (labels the inert page does not offer anyway) the marks are only removed.
 */
function storedUserSlots(html: string): string {
  return html
    .replace(/="[^"]*"/g, (attribute) => attribute.replaceAll(NAME_MARK, '').replaceAll(INITIAL_MARK, ''))
    .replaceAll(NAME_MARK, '<span data-stored-user="username"></span>')
    .replaceAll(INITIAL_MARK, '<span data-stored-user="initial"></span>');
}

/** The HTML of `url`'s page as its audience first sees it; undefined when a route guard sends that audience elsewhere. */
export async function prerender(url: string, audience: PrerenderAudience): Promise<string | undefined> {
  const stored = audience === 'signed-in' ? { token: '', user: NOT_YET_KNOWN } : null;
  const session = createActor(sessionMachine, { input: { stored } }).start();
  try {
    const router = createAppRouter({ session, deps }, createMemoryHistory({ initialEntries: [url] }));
    await router.load();
    if (router.state.location.pathname !== url || router.state.matches.some((match) => match.status !== 'success')) return undefined;
    return storedUserSlots(
      renderToString(
        <StrictMode>
          <LocaleProvider actor={null}>
            <RouterProvider router={router} />
          </LocaleProvider>
        </StrictMode>,
      ),
    );
  } finally {
    session.stop();
  }
}

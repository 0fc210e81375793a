import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, waitFor, type ActorRefLike, type InspectionEvent } from 'xstate';
import { webConfig } from './config.ts';
import { loadCatalog } from './i18n/catalogs.ts';
import { showLocale } from './i18n/document.ts';
import { LocaleProvider } from './i18n/LocaleProvider.tsx';
import { LOCALE_STORAGE_KEY, pickLocale } from './i18n/locales.ts';
import { bindLocale } from './machines/locale/locale.actors.ts';
import { bindSession } from './machines/session/session.actors.ts';
import { createAppRouter } from './router.ts';
import { createAccountService } from './services/accounts.ts';
import { lazyService } from './services/lazy.ts';
import { createApi } from './services/api.ts';
import { loadWebAppConfig } from './services/config.ts';
import { describeDevice } from './services/device.ts';
import { createRealtimeService } from './services/realtime.ts';
import { deviceId, readStoredLocale, readStoredSession, writeStoredLocale } from './services/storage.ts';
import { showToast } from './ui/primitives/LaterToaster.tsx';

// Composition root: config -> services -> session actor -> router -> render. Loaded by src/main.tsx, in stages.
// Read now, awaited only by what needs it (the realtime connection), so the first page does not wait.
const config = loadWebAppConfig(`${webConfig.apiBaseUrl}config`);

// The language, started as this module is evaluated: its catalog (the page's first visit preloads it, src/boot/locale.js)
// loads while the session and the router are made, and the first render waits for it.
const locale = createActor(
  bindLocale({
    loadCatalog,
    show: showLocale,
    remember: (chosen) => writeStoredLocale(LOCALE_STORAGE_KEY, chosen),
  }),
  { input: { locale: pickLocale(readStoredLocale(LOCALE_STORAGE_KEY), navigator.languages ?? [navigator.language]) } },
).start();

const api = createApi({
  baseUrl: webConfig.apiBaseUrl,
  getToken: () => session.getSnapshot().context.token,
  onSessionExpired: () => session.send({ type: 'session.expired' }),
  onError: (message) => showToast({ title: message, type: 'error' }),
});
const accounts = createAccountService(api, describeDevice(), () => deviceId());
// Only signed-in pages call these: each loads with its first call, not with /login.
const market = lazyService(() => import('./services/market.ts').then((m) => m.createMarketService(api)));
const trades = lazyService(() => import('./services/trades.ts').then((m) => m.createTradeService(api)));
const chat = lazyService(() => import('./services/chat.ts').then((m) => m.createChatService(api)));
const traders = lazyService(() => import('./services/traders.ts').then((m) => m.createTraderService(api)));
const wallets = lazyService(() => import('./services/wallets.ts').then((m) => m.createWalletService(api)));
const notifications = lazyService(() => import('./services/notifications.ts').then((m) => m.createNotificationService(api)));
const moderation = lazyService(() => import('./services/moderation.ts').then((m) => m.createModerationService(api)));
const realtime = createRealtimeService({
  config: config.then((loaded) => loaded?.realtime ?? null),
  authEndpoint: `${webConfig.apiBaseUrl}realtime/auth/`,
  getToken: () => session.getSnapshot().context.user?.websocket_token ?? null,
  // The socket's session ended: one quiet signed-in call, whose 401 signs this tab out as any call's would.
  onSessionEnded: () => void accounts.overview(),
});
// Only a signed-in trader's device registers for web push: the service loads with the registration's first call.
const push = lazyService(() =>
  import('./services/push.ts').then(({ createPushService }) => {
    const service = createPushService({
      config: config.then((loaded) => loaded?.push ?? null),
      tokenUrl: `${webConfig.apiBaseUrl}push/beams-auth/`,
      getToken: () => session.getSnapshot().context.token,
    });
    return service;
  }),
);
// Live mode of the flow atlas (development): the pages' actors are only noted until an atlas tab answers; then the
// inspector loads (its own chunk) and announces them, so no page downloads it before anyone is watching.
let inspectLive: ((event: InspectionEvent) => void) | undefined;
let watched: Set<ActorRefLike> | null = new Set();
void config.then((loaded) => {
  if (!loaded?.flow_atlas.live) return void (watched = null);
  const hello = new BroadcastChannel('peerex-flow-atlas');
  hello.onmessage = ({ data }) => {
    if (data?.kind !== 'hello') return;
    hello.close();
    void import('./services/flowLive.ts').then((live) => {
      inspectLive = live.createLiveInspector(watched ?? []);
      watched = null;
    });
  };
  hello.postMessage({ kind: 'page' });
});
const inspect = (event: InspectionEvent) => {
  if (inspectLive) return inspectLive(event);
  if (event.type === '@xstate.snapshot' && (event.snapshot as { status?: string }).status !== 'active') watched?.delete(event.actorRef);
  else watched?.add(event.actorRef);
};
const startSession = () => createActor(bindSession(accounts, realtime, push), { input: { stored: readStoredSession() }, inspect }).start();
// Made by startApp, each in a task of its own: made as this module was evaluated, the session's first state and the
// route tree were half of one task of a hundred-odd milliseconds on a phone
// (bench/README.md "The signed-in pages' long tasks").
let session: ReturnType<typeof startSession>;
let router: ReturnType<typeof createAppRouter>;

/**
 * Starts the session, makes the router (a task later: `nextTask`), then draws the app in place of the page drawn from
 * HTML (src/prerender.tsx). Called by src/main.tsx a task after this module has been evaluated: the route's chunks
 * import this module's own, so loading the route from this module's top level would wait for itself.
 *
 * The route is loaded first (its chunks, its guards): loaded during the first render, it would change the router's
 * store, and a store's change is drawn at once, in one task (useSyncExternalStore), the whole page included. The
 * router, mounted on a location it has already loaded, does not load it again (Transitioner). The first render is
 * then a transition: React renders in slices of a few milliseconds, yielding between them.
 */
export async function startApp(nextTask: () => Promise<void>) {
  session = startSession();
  await nextTask();
  router = createAppRouter({
    session,
    deps: {
      accounts,
      market,
      trades,
      chat,
      traders,
      wallets,
      notifications,
      moderation,
      api,
      appConfig: config,
      inspect,
      realtime,
      currentUsername: () => session.getSnapshot().context.user?.username ?? null,
      signIn: (established) => session.send({ type: 'session.signedIn', ...established }),
      notify: showToast,
      copyText: (text) => navigator.clipboard.writeText(text),
      navigate: (to, search) =>
        void (to === '/chat' ? router.navigate({ to, search: search ?? {}, replace: true }) : router.navigate({ to, replace: true })),
      visit: (path) => void router.navigate({ href: path }),
    },
  });

  // Signing in or out re-runs the route guards: a signed-out trader goes to /login, a signed-in one leaves login,
  // signup and reset for the app, and each redirect replaces the history entry.
  let signedIn = session.getSnapshot().matches('signedIn');
  session.subscribe((snapshot) => {
    if (snapshot.matches('signedIn') === signedIn) return;
    signedIn = !signedIn;
    // The socket belongs to the session that opened it: a new one signs in with the new websocket token.
    if (!signedIn) realtime.disconnect();
    void router.invalidate();
  });

  // The route's guards and chunks, a task after the route tree's construction.
  await nextTask();
  await router.load().catch((error: unknown) => console.error(error));
  await waitFor(locale, (snapshot) => snapshot.matches('ready'));
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <LocaleProvider actor={locale}>
          <RouterProvider router={router} />
        </LocaleProvider>
      </StrictMode>,
    ),
  );
}

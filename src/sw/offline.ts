/**
 * The installed app's offline page (docs/web-app.md "Installed app and offline page"): the service worker keeps
 * public/offline.html and what it loads, and answers a page the network cannot bring with it, instead of the
 * browser's own error. Only that: a page the server answers, even with an error, is the server's answer; no API
 * call, asset or other site's request is touched, so nothing the product shows is ever served stale from here.
 * Written against the few worker APIs it uses, so a test can hand in stand-ins.
 */

/** The page and what it loads: absolute paths, as it is shown in place of any page of the site. */
export const OFFLINE_FILES = ['/offline.html', '/offline.css', '/offline.js', '/favicon.svg'] as const;
export const OFFLINE_PAGE = OFFLINE_FILES[0];
const CACHE_PREFIX = 'peerex-offline-';

/** One cache per version of the offline files (their hash, written into the worker by the build): a new one replaces the old. */
export const offlineCacheName = (version: string) => `${CACHE_PREFIX}${version}`;

export type OfflineCache = { addAll: (requests: string[]) => Promise<void> };
export type OfflineCaches = {
  open: (name: string) => Promise<OfflineCache>;
  keys: () => Promise<string[]>;
  delete: (name: string) => Promise<boolean>;
  /** Looked up in the current version's cache only, so a file of an old version is never shown with a new one. */
  match: (request: string, options: { cacheName: string }) => Promise<Response | undefined>;
};
export type OfflineScope = {
  location: { origin: string };
  caches: OfflineCaches;
  fetch: (request: Request) => Promise<Response>;
  registration: { navigationPreload?: { enable: () => Promise<unknown> } };
};
export type FetchEventLike = {
  request: Request;
  /** The page's response the browser started fetching while the worker woke (navigation preload); undefined without it. */
  preloadResponse?: Promise<Response | undefined>;
  respondWith: (response: Promise<Response>) => void;
};

/** At install: the offline files of this version, fetched anew (not from the HTTP cache) and kept. */
export async function keepOfflineFiles(scope: OfflineScope, version: string): Promise<void> {
  const cache = await scope.caches.open(offlineCacheName(version));
  await cache.addAll([...OFFLINE_FILES]);
}

/**
 * At activation: earlier versions' offline files dropped (other caches, such as the push SDK's, are not ours), and
 * navigation preload on, so a page's request does not wait for this worker to start before it leaves.
 */
export async function dropOldOfflineFiles(scope: OfflineScope, version: string): Promise<void> {
  const current = offlineCacheName(version);
  const names = await scope.caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== current).map((name) => scope.caches.delete(name)));
  await scope.registration.navigationPreload?.enable();
}

const isOfflineFile = (url: URL, origin: string) => url.origin === origin && (OFFLINE_FILES as readonly string[]).includes(url.pathname);

/**
 * A page of the site (a navigation) goes to the network as always; only when the network fails does the offline
 * page answer. The offline page's own files are fetched from the network too when it answers, and from the cache
 * when it does not. Every other request is left to the browser.
 */
export function onFetch(event: FetchEventLike, scope: OfflineScope, version: string): void {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const cacheName = offlineCacheName(version);
  if (request.mode === 'navigate' && url.origin === scope.location.origin) {
    event.respondWith(
      (async () => {
        try {
          return (await event.preloadResponse) ?? (await scope.fetch(request));
        } catch (networkError) {
          const page = await scope.caches.match(OFFLINE_PAGE, { cacheName });
          if (page) return page;
          throw networkError;
        }
      })(),
    );
    return;
  }
  if (isOfflineFile(url, scope.location.origin)) {
    event.respondWith(
      scope.fetch(request).catch(async (networkError: unknown) => {
        const file = await scope.caches.match(url.pathname, { cacheName });
        if (file) return file;
        throw networkError;
      }),
    );
  }
}

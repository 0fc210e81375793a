import {
  OFFLINE_FILES,
  dropOldOfflineFiles,
  keepOfflineFiles,
  offlineCacheName,
  onFetch,
  type FetchEventLike,
  type OfflineScope,
} from '../../src/sw/offline.ts';

const ORIGIN = 'https://peerex.example';
const VERSION = 'v2';

/** A stand-in for the worker's `self`: caches by name, and a network that answers or fails. */
function fakeWorker(network: (request: Request) => Promise<Response>) {
  const stored = new Map<string, Map<string, Response>>();
  const preloadEnabled = vi.fn(async () => undefined);
  const scope: OfflineScope = {
    location: { origin: ORIGIN },
    fetch: vi.fn(network),
    registration: { navigationPreload: { enable: preloadEnabled } },
    caches: {
      open: async (name) => {
        const cache = stored.get(name) ?? new Map<string, Response>();
        stored.set(name, cache);
        return { addAll: async (paths) => paths.forEach((path) => cache.set(path, new Response(`kept ${path}`))) };
      },
      keys: async () => [...stored.keys()],
      delete: async (name) => stored.delete(name),
      match: async (path, { cacheName }) => stored.get(cacheName)?.get(path)?.clone(),
    },
  };
  return { scope, stored, preloadEnabled };
}

const offline = async () => {
  throw new TypeError('Failed to fetch');
};
const answering = (status: number, body: string) => async () => new Response(body, { status });

/** A request as the browser hands it to the worker (a navigation's mode cannot be made with `new Request`). */
const request = (path: string, init: { mode?: string; method?: string } = {}) =>
  ({ url: new URL(path, ORIGIN).href, method: init.method ?? 'GET', mode: init.mode ?? 'cors' }) as unknown as Request;

/** Dispatches a fetch event; the answer the worker gave, or null when it left the request to the browser. */
function dispatch(scope: OfflineScope, fetched: Request, preloadResponse?: Promise<Response | undefined>) {
  let answer: Promise<Response> | null = null;
  const event: FetchEventLike = { request: fetched, preloadResponse, respondWith: (response) => void (answer = response) };
  onFetch(event, scope, VERSION);
  return answer as Promise<Response> | null;
}

describe('service worker: the offline page', () => {
  it('keeps the offline page and what it loads at install, under its version', async () => {
    const { scope, stored } = fakeWorker(offline);
    await keepOfflineFiles(scope, VERSION);
    expect([...(stored.get(offlineCacheName(VERSION))?.keys() ?? [])]).toEqual([...OFFLINE_FILES]);
  });

  it("drops only earlier versions' offline files at activation, and turns navigation preload on", async () => {
    const { scope, stored, preloadEnabled } = fakeWorker(offline);
    await keepOfflineFiles(scope, 'v1');
    await keepOfflineFiles(scope, VERSION);
    stored.set('beams-sdk-cache', new Map());
    await dropOldOfflineFiles(scope, VERSION);
    expect([...stored.keys()].sort()).toEqual(['beams-sdk-cache', offlineCacheName(VERSION)]);
    expect(preloadEnabled).toHaveBeenCalledOnce();
  });

  it("answers a page of the site with the offline page when the network fails", async () => {
    const { scope } = fakeWorker(offline);
    await keepOfflineFiles(scope, VERSION);
    const answer = dispatch(scope, request('/offers', { mode: 'navigate' }));
    expect(await (await answer!).text()).toBe('kept /offline.html');
  });

  it("passes the server's own answer through, an error page included", async () => {
    const { scope } = fakeWorker(answering(500, 'the server said so'));
    await keepOfflineFiles(scope, VERSION);
    const answer = await dispatch(scope, request('/offers', { mode: 'navigate' }))!;
    expect(answer.status).toBe(500);
    expect(await answer.text()).toBe('the server said so');
  });

  it('takes the preloaded page when the browser preloaded it, without fetching again', async () => {
    const { scope } = fakeWorker(offline);
    const answer = await dispatch(scope, request('/trades', { mode: 'navigate' }), Promise.resolve(new Response('preloaded')))!;
    expect(await answer.text()).toBe('preloaded');
    expect(scope.fetch).not.toHaveBeenCalled();
  });

  it("fails as the network did when an old version's worker kept no offline page", async () => {
    const { scope } = fakeWorker(offline);
    await keepOfflineFiles(scope, 'v1');
    await expect(dispatch(scope, request('/offers', { mode: 'navigate' }))!).rejects.toThrow('Failed to fetch');
  });

  it("serves the offline page's own files from the network, and from the cache when the network fails", async () => {
    const online = fakeWorker(answering(200, 'fresh css'));
    await keepOfflineFiles(online.scope, VERSION);
    expect(await (await dispatch(online.scope, request('/offline.css'))!).text()).toBe('fresh css');
    const cut = fakeWorker(offline);
    await keepOfflineFiles(cut.scope, VERSION);
    expect(await (await dispatch(cut.scope, request('/offline.css'))!).text()).toBe('kept /offline.css');
  });

  it('leaves API calls, assets, posts and other sites to the browser', async () => {
    const { scope } = fakeWorker(offline);
    expect(dispatch(scope, request('/api/offers/'))).toBeNull();
    expect(dispatch(scope, request('/assets/index-abc1234.js'))).toBeNull();
    expect(dispatch(scope, request('/login', { mode: 'navigate', method: 'POST' }))).toBeNull();
    expect(dispatch(scope, request('https://elsewhere.example/', { mode: 'navigate' }))).toBeNull();
    expect(dispatch(scope, request('https://elsewhere.example/offline.css'))).toBeNull();
    expect(scope.fetch).not.toHaveBeenCalled();
  });
});

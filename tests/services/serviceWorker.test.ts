import {
  clickTarget,
  onNotificationClick,
  onPush,
  type NotificationData,
  type PushPayload,
  type WindowClientLike,
  type WorkerScope,
} from '../../src/sw/handlers.ts';

const ORIGIN = 'https://peerex.example';

type Shown = { title: string; options: { body: string; icon?: string; data: NotificationData } };

/** A stand-in for the worker's `self`: the windows open, what was shown, what was opened. */
function fakeWorker(windows: Array<Partial<WindowClientLike> & { url: string }> = []) {
  const shown: Shown[] = [];
  const opened: string[] = [];
  const clients = windows.map((window) => ({
    focused: false,
    focus: vi.fn(async () => window),
    navigate: vi.fn(async () => window),
    ...window,
  }));
  const scope: WorkerScope = {
    location: { origin: ORIGIN },
    registration: { showNotification: async (title, options) => void shown.push({ title, options }) },
    clients: {
      matchAll: vi.fn(async () => clients),
      openWindow: vi.fn(async (url: string) => void opened.push(url)),
    },
  };
  return { scope, shown, opened, clients };
}

/** Dispatches like the browser does and waits for what the handler asked the worker to wait for. */
async function push(scope: WorkerScope, payload: unknown) {
  const waits: Promise<unknown>[] = [];
  onPush({ data: { json: () => (typeof payload === 'string' ? JSON.parse(payload) : payload) }, waitUntil: (p) => void waits.push(p) }, scope);
  await Promise.all(waits);
  return waits.length;
}

async function click(scope: WorkerScope, data: unknown) {
  const waits: Promise<unknown>[] = [];
  const close = vi.fn();
  onNotificationClick({ notification: { data, close }, waitUntil: (p) => void waits.push(p) }, scope);
  await Promise.all(waits);
  return { close };
}

const tradePaid: PushPayload = {
  notification: { title: 'Trade paid', body: 'bob marked 0.01 BTC as paid', icon: `${ORIGIN}/favicon.svg`, deep_link: `${ORIGIN}/chat?channel=abc` },
  data: { kind: 'trade', pusher: { instanceId: 'peerex', publishId: 'pub-1', hasDisplayableContent: true, hasData: true } },
};

describe('service worker: push', () => {
  it("shows the notification's title, body and icon, and keeps the link and the publisher's data for the click", async () => {
    const { scope, shown } = fakeWorker();
    await push(scope, JSON.stringify(tradePaid));
    expect(shown).toEqual([
      {
        title: 'Trade paid',
        options: { body: 'bob marked 0.01 BTC as paid', icon: `${ORIGIN}/favicon.svg`, data: { deepLink: `${ORIGIN}/chat?channel=abc`, data: { kind: 'trade' } } },
      },
    ]);
  });

  it('stays quiet when asked to hide while a window of the site has focus', async () => {
    const quiet = { ...tradePaid, notification: { ...tradePaid.notification, hide_notification_if_site_has_focus: true } };
    const focused = fakeWorker([{ url: `${ORIGIN}/`, focused: true }]);
    await push(focused.scope, quiet);
    expect(focused.shown).toEqual([]);

    const away = fakeWorker([{ url: `${ORIGIN}/`, focused: false }]);
    await push(away.scope, quiet);
    expect(away.shown.map((item) => item.title)).toEqual(['Trade paid']);

    const notAsked = fakeWorker([{ url: `${ORIGIN}/`, focused: true }]);
    await push(notAsked.scope, tradePaid);
    expect(notAsked.shown.map((item) => item.title), 'shown when not asked to hide').toEqual(['Trade paid']);
  });

  it('shows nothing for a payload that is not JSON or has no notification', async () => {
    const { scope, shown } = fakeWorker();
    expect(await push(scope, '{not json')).toBe(0);
    await push(scope, { data: { pusher: {} } });
    expect(shown).toEqual([]);
  });
});

describe('service worker: notification click', () => {
  const data = (deepLink: string | null): NotificationData => ({ deepLink, data: {} });

  it('closes the notification, focuses an open window of the site and takes it to the deep link', async () => {
    const { scope, clients, opened } = fakeWorker([
      { url: 'https://elsewhere.example/' },
      { url: `${ORIGIN}/offers`, focused: true },
    ]);
    const { close } = await click(scope, data(`${ORIGIN}/chat?channel=abc`));
    expect(close).toHaveBeenCalledOnce();
    expect(clients[1]!.focus).toHaveBeenCalledOnce();
    expect(clients[1]!.navigate).toHaveBeenCalledWith(`${ORIGIN}/chat?channel=abc`);
    expect(clients[0]!.navigate).not.toHaveBeenCalled();
    expect(opened).toEqual([]);
  });

  it('a window already on the page is only focused', async () => {
    const { scope, clients } = fakeWorker([{ url: `${ORIGIN}/wallets/transactions` }]);
    await click(scope, data('/wallets/transactions'));
    expect(clients[0]!.focus).toHaveBeenCalledOnce();
    expect(clients[0]!.navigate).not.toHaveBeenCalled();
  });

  it('opens a window when none of the site is open, or when the open one cannot be navigated', async () => {
    const none = fakeWorker([{ url: 'https://elsewhere.example/' }]);
    await click(none.scope, data('/wallets/transactions'));
    expect(none.opened).toEqual([`${ORIGIN}/wallets/transactions`]);

    const uncontrolled = fakeWorker([{ url: `${ORIGIN}/`, navigate: vi.fn(async () => Promise.reject(new TypeError('not controlled'))) }]);
    await click(uncontrolled.scope, data('/trades'));
    expect(uncontrolled.opened).toEqual([`${ORIGIN}/trades`]);
  });

  it('refuses a link to another site: the home page opens instead', async () => {
    const { scope, opened } = fakeWorker();
    await click(scope, data('https://evil.example/phish'));
    await click(scope, data('//evil.example/phish'));
    await click(scope, data('javascript:alert(1)'));
    await click(scope, data(null));
    await click(scope, undefined);
    expect(opened).toEqual(Array(5).fill(`${ORIGIN}/`));
  });

  it('resolves paths and absolute links of the site alike', () => {
    expect(clickTarget('/chat?channel=abc', ORIGIN)).toBe(`${ORIGIN}/chat?channel=abc`);
    expect(clickTarget(`${ORIGIN}/chat`, ORIGIN)).toBe(`${ORIGIN}/chat`);
    expect(clickTarget('http://peerex.example/chat', ORIGIN), 'another scheme is another origin').toBe(`${ORIGIN}/`);
  });
});

import type { Browser, BrowserContext, Locator, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, newPage, screenshot, standingStill, type Product, toast } from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

/**
 * Issue 10, "Realtime and the trade chat": traders in their own browser contexts carry whole trades through
 * /chat, each seeing the other's doings live, without reloading. The steps share the traders and their pages,
 * so they run in order, each one starting where the last left off.
 */

let product: Product;
let browser: Browser;

type Scheme = 'light' | 'dark';
type Trader = { name: string; page: Page; context: BrowserContext; scheme: Scheme; width: number; height: number; network: Network };
type Network = Awaited<ReturnType<typeof controlNetwork>>;

const traders: Trader[] = [];
let alice: Trader;
let bob: Trader;
let carol: Trader;
/** The trades' channels, as the URL bob and carol landed on names them. */
let firstChannel = '';
let secondChannel = '';

const MOBILE = { width: 390, height: 844 };
/** Live updates arrive within this, on a loaded 2-core machine too. */
const within = { timeout: 10_000 };

productAndBrowserPerFile((running) => ({ product, browser } = running));
afterAll(async () => {
  for (const trader of traders) await trader.context.close();
});

const signIn = (page: Page, username: string) => product.signIn(page, username);

/**
 * The context's network as a test may cut it: its websockets pass through the test (to the product's
 * server), so going offline both fails its requests (setOffline, which Chromium does not apply to a
 * websocket already open) and drops its open socket and every new one until the network is back.
 */
async function controlNetwork(context: BrowserContext) {
  const open = new Set<{ page: WebSocketRoute; server: WebSocketRoute }>();
  let down = false;
  await context.routeWebSocket(
    () => true,
    (page) => {
      if (down) return page.close();
      const socket = { page, server: page.connectToServer() };
      open.add(socket);
      // The page closed it (pusher-js leaving): the server's side closes too.
      page.onClose(() => {
        open.delete(socket);
        void socket.server.close();
      });
    },
  );
  return {
    async goOffline() {
      down = true;
      await context.setOffline(true);
      for (const socket of open) await Promise.all([socket.server.close(), socket.page.close()]);
      open.clear();
    },
    async goOnline() {
      down = false;
      await context.setOffline(false);
    },
  };
}

async function trader(name: string, scheme: Scheme, size: { width: number; height: number } = { width: 1280, height: 800 }) {
  const { page, context } = await newPage(browser, { colorScheme: scheme, ...size });
  const signedIn: Trader = { name, page, context, scheme, ...size, network: await controlNetwork(context) };
  traders.push(signedIn);
  await signIn(page, name);
  return signedIn;
}

/**
 * Dismisses every toast, so what follows (a screenshot) shows the page alone; one that slid in under the pointer
 * stays while the pointer rests on it, as a toast does.
 */
async function dismissToasts(page: Page) {
  const toasts = page.locator('[data-scope="toast"][data-part="root"]');
  for (let left = await toasts.count(); left > 0; left = await toasts.count()) {
    await toasts.first().getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => toasts.count(), within).toBeLessThan(left);
  }
}

/** Marks the page's document: while the mark is there, the page has not been reloaded since. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as Window & { chatTestMark?: boolean }).chatTestMark = true;
  });
const notReloaded = (page: Page) => page.evaluate(() => (window as Window & { chatTestMark?: boolean }).chatTestMark === true);

/** The open conversation of one trade, as ConversationPane shows it. */
const pane = (page: Page, channel: string) => page.locator(`article[data-channel="${channel}"]`);
/** Its entry in the Conversations list. */
const entry = (page: Page, channel: string) => page.getByRole('list', { name: 'Conversations' }).locator(`li[data-channel="${channel}"]`);
const messages = (conversation: Locator) => conversation.getByRole('list', { name: 'Messages' }).getByRole('listitem');
const own = (conversation: Locator, text: string) => conversation.locator('li[data-own="true"]', { hasText: text });
const fromPartner = (conversation: Locator, text: string) => conversation.locator('li[data-from="partner"]', { hasText: text });
const system = (conversation: Locator, text: string | RegExp) => conversation.locator('li[data-system="true"]', { hasText: text });
const actions = (conversation: Locator) => conversation.getByRole('group', { name: 'Trade actions' });
const actionLabels = (conversation: Locator) => actions(conversation).getByRole('button').allTextContents();
const input = (conversation: Locator) => conversation.locator('textarea[name="text"]');
/** The message input with its Send button. */
const composer = (conversation: Locator) => conversation.locator('form:has(textarea[name="text"])');
/** The header's summary of the trade (TradeSummary.tsx), its countdown, and on a phone the line that opens it. */
const summary = (conversation: Locator) => conversation.getByRole('region', { name: 'Trade summary' });
const countdown = (conversation: Locator) => summary(conversation).getByRole('timer');
const summaryToggle = (conversation: Locator) => summary(conversation).locator('button[aria-expanded]').first();
/** "14:32 left to pay" → 872 seconds. */
const secondsLeft = async (conversation: Locator) => {
  const [, minutes, seconds] = /^(\d+):(\d\d) left/.exec((await countdown(conversation).textContent()) ?? '') ?? [];
  expect(minutes, 'a countdown like "14:32 left to pay"').toBeDefined();
  return Number(minutes) * 60 + Number(seconds);
};
/** How tall the message list is, in the window. */
const messageListHeight = (conversation: Locator) =>
  conversation.getByRole('list', { name: 'Messages' }).evaluate((list) => list.parentElement!.getBoundingClientRect().height);
type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** A toast showing on the page never covers the chat's input or its trade buttons. */
async function toastsClearOf(page: Page, conversation: Locator) {
  const toasts = await page.locator('[data-scope="toast"][data-part="root"]').all();
  expect(toasts.length, 'a toast to check').toBeGreaterThan(0);
  const controls = [composer(conversation), actions(conversation)];
  for (const toastBox of toasts) {
    const box = await toastBox.boundingBox();
    for (const control of controls) {
      if ((await control.count()) === 0) continue;
      const under = await control.boundingBox();
      if (box && under) expect(overlap(box, under), `a toast at ${JSON.stringify(box)} covers ${JSON.stringify(under)}`).toBe(false);
    }
  }
}

/**
 * The trade room as `chat-room-<name>-<look>.png` at 1280 px and at 390 px, light and dark; on the phone with its
 * summary folded, then opened (`-summary-open`). The trader's own look is back afterwards.
 */
async function shootRoom(who: Trader, conversation: Locator, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await who.page.emulateMedia({ colorScheme: scheme });
    await who.page.setViewportSize({ width: 1280, height: 720 });
    await transitionsDone(who.page);
    await screenshot(who.page, `chat-room-${name}-desktop-${scheme}`);
    await who.page.setViewportSize(MOBILE);
    await transitionsDone(who.page);
    await screenshot(who.page, `chat-room-${name}-mobile-${scheme}`);
    await summaryToggle(conversation).click();
    await expect.poll(() => summaryToggle(conversation).getAttribute('aria-expanded'), within).toBe('true');
    await transitionsDone(who.page);
    await screenshot(who.page, `chat-room-${name}-mobile-${scheme}-summary-open`);
    await summaryToggle(conversation).click();
    await expect.poll(() => summaryToggle(conversation).getAttribute('aria-expanded'), within).toBe('false');
  }
  await who.page.emulateMedia({ colorScheme: who.scheme });
  await who.page.setViewportSize({ width: who.width, height: who.height });
}

/** Colours ease in over a short transition: the ones a change of scheme started have ended, so a screenshot shows where they land. */
const transitionsDone = (page: Page) =>
  page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const transitions = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
    await Promise.all(transitions.map((transition) => transition.finished.catch(() => undefined)));
  });

/**
 * The page as `chat-<name>-<look>.png`, for each look: the trader's own colour scheme and width unless told,
 * `mobile-*` at 390 px wide. The trader's own look is back afterwards.
 */
async function shoot(who: Trader, name: string, looks: Array<Scheme | `mobile-${Scheme}`> = [who.scheme]) {
  for (const look of looks) {
    const scheme: Scheme = look.endsWith('dark') ? 'dark' : 'light';
    await who.page.emulateMedia({ colorScheme: scheme });
    await who.page.setViewportSize(look.startsWith('mobile') ? MOBILE : { width: who.width, height: who.height });
    await transitionsDone(who.page);
    await screenshot(who.page, `chat-${name}-${look}`);
  }
  await who.page.emulateMedia({ colorScheme: who.scheme });
  await who.page.setViewportSize({ width: who.width, height: who.height });
}

/** Opens a trade on alice's first sell offer from Browse Offers; answers the channel of the conversation it lands in. */
async function buyFromAlice(buyer: Trader): Promise<string> {
  const { page } = buyer;
  await page.goto(`${product.baseUrl}/offers`);
  await page.getByRole('combobox', { name: 'Offer type' }).click();
  await page.getByRole('option', { name: 'Sell Offers', exact: true }).click();
  await page.getByLabel('Search trader').fill('alice');
  const card = page.getByRole('article', { name: /^sell offer by alice$/ }).first();
  await card.waitFor();
  await card.getByRole('button', { name: 'Buy from this seller' }).click();
  const dialog = page.getByRole('dialog', { name: 'Trade Preview' });
  const hint = (await dialog.getByText(/^Amount must be between /).textContent()) ?? '';
  const [, min] = /between ([\d.]+) - /.exec(hint) ?? [];
  expect(min).toBeTruthy();
  await dialog.getByLabel(/^Amount/).fill(min!);
  await dialog.getByRole('combobox', { name: 'Payment method' }).click();
  await page.getByRole('option').first().click();
  const confirm = dialog.getByRole('button', { name: 'Confirm Buy Order' });
  await expect.poll(() => confirm.isDisabled(), within).toBe(false);
  await markDocument(page);
  await confirm.click();
  await page.waitForURL((url) => url.pathname === '/chat' && url.searchParams.has('channel'));
  await toast(page, 'Trade Opened!').waitFor();
  const channel = new URL(page.url()).searchParams.get('channel') ?? '';
  expect(channel).not.toBe('');
  // Landed in that very conversation, open, with the trade's first system message.
  const conversation = pane(page, channel);
  await conversation.waitFor();
  expect(await conversation.getAttribute('aria-label')).toBe('Conversation with alice');
  expect(await conversation.getAttribute('data-status')).toBe('pending');
  await messages(conversation).first().waitFor();
  return channel;
}

describe('the trade chat, live between two traders', () => {
  it('bob opens a trade from Browse Offers; it appears live in alice’s open /chat, and she opens it', async () => {
    [alice, bob] = await Promise.all([trader('alice', 'dark'), trader('bob', 'light')]);
    await alice.page.goto(`${product.baseUrl}/chat`);
    await alice.page.getByText('Select a conversation').waitFor();
    await alice.page.getByRole('list', { name: 'Conversations' }).waitFor();
    await expect.poll(() => alice.page.getByRole('list', { name: 'Conversations' }).getAttribute('aria-busy'), within).toBe('false');
    expect(await alice.page.locator('[data-partner="bob"]').count()).toBe(0);
    await markDocument(alice.page);

    firstChannel = await buyFromAlice(bob);

    const aliceEntry = entry(alice.page, firstChannel);
    await aliceEntry.waitFor(within);
    expect(await aliceEntry.getAttribute('data-partner')).toBe('bob');
    expect(await aliceEntry.getAttribute('data-status')).toBe('pending');
    await aliceEntry.getByRole('button').click();
    await alice.page.waitForURL((url) => url.searchParams.get('channel') === firstChannel);
    const conversation = pane(alice.page, firstChannel);
    await conversation.waitFor();
    expect(await conversation.getAttribute('aria-label')).toBe('Conversation with bob');
    // The trade's opening system message, the same on both sides.
    const opening = messages(conversation).first();
    await opening.waitFor();
    expect(await opening.getAttribute('data-system')).toBe('true');
    // Pending and unpaid: both may cancel, only the buyer marks it paid.
    await expect.poll(() => actionLabels(conversation), within).toEqual(['Cancel Trade']);
    await expect.poll(() => actionLabels(pane(bob.page, firstChannel)), within).toEqual(['Cancel Trade', 'Mark Paid']);
    expect(await notReloaded(alice.page)).toBe(true);
  });

  it('the header sums the trade up for each side: amount, role, and the time left to pay counting down', async () => {
    const atAlice = pane(alice.page, firstChannel);
    const atBob = pane(bob.page, firstChannel);
    for (const [conversation, role, left, amountTerm] of [
      [atBob, 'You are buying', / left to pay$/, 'You receive'],
      [atAlice, 'You are selling', / left for the buyer to pay$/, 'In escrow'],
    ] as const) {
      await summary(conversation).getByText(role, { exact: true }).waitFor(within);
      expect(await summary(conversation).textContent()).toMatch(new RegExp(`${amountTerm}\\d[\\d,]*\\.\\d+ [A-Z]+Total\\d[\\d,]*\\.\\d\\d [A-Z]{3}Rate1\\.00 USD = `));
      expect(await countdown(conversation).textContent()).toMatch(left);
    }
    // The payment window (30 minutes) has just begun, and the clock runs.
    const first = await secondsLeft(atBob);
    expect(first).toBeGreaterThan(25 * 60);
    expect(first).toBeLessThanOrEqual(30 * 60);
    await expect.poll(() => secondsLeft(atBob), within).toBeLessThan(first);
    await shootRoom(bob, atBob, 'open-bob');
  });

  it('alice types steadily (a key every 150 ms for 2 s): bob reads "alice is typing..." while she types, before any pause', async () => {
    const atAlice = pane(alice.page, firstChannel);
    const typing = pane(bob.page, firstChannel).getByText('alice is typing...');
    await typing.waitFor({ state: 'detached', ...within });
    await input(atAlice).click();
    const started = Date.now();
    const seen: Array<{ at: number; shown: boolean }> = [];
    while (Date.now() - started < 2000) {
      await alice.page.keyboard.press('x');
      seen.push({ at: Date.now() - started, shown: await typing.isVisible() });
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const firstShown = seen.find((check) => check.shown);
    expect(firstShown, 'bob read it while alice was still typing').toBeDefined();
    expect(firstShown!.at, 'the first keys tell him, not a pause').toBeLessThan(1000);
    // Once shown it stays, key after key: each notice renews the 1.5 s line before it runs out.
    expect(seen.filter((check) => check.at > firstShown!.at + 300 && !check.shown)).toEqual([]);
    await input(atAlice).fill('');
  });

  it('they talk live: the typing line, own and partner’s messages, Enter sends, Shift+Enter a new line, a blank message is not sent', async () => {
    const atAlice = pane(alice.page, firstChannel);
    const atBob = pane(bob.page, firstChannel);

    // alice types: bob reads "alice is typing...".
    await input(atAlice).fill('Hi bob, the SEPA details are in my terms');
    await atBob.getByText('alice is typing...').waitFor(within);
    await shoot(bob, 'typing-bob');
    await shoot(alice, 'typing-alice');

    // Enter sends: alice's own message on her right, bob's copy with "@alice", and the typing line goes.
    await input(atAlice).press('Enter');
    await own(atAlice, 'Hi bob, the SEPA details are in my terms').waitFor(within);
    await expect.poll(() => input(atAlice).inputValue(), within).toBe('');
    const heard = fromPartner(atBob, 'Hi bob, the SEPA details are in my terms');
    await heard.waitFor(within);
    expect(await heard.getByText('@alice', { exact: true }).count()).toBe(1);
    expect(await own(atAlice, 'Hi bob').getByText('@alice').count()).toBe(0);
    await atBob.getByText('alice is typing...').waitFor({ state: 'detached', ...within });
    // bob's list shows it as the conversation's last message.
    const preview = 'Hi bob, the SEPA details are in my terms'.slice(0, 35).trimEnd() + '…';
    await expect.poll(() => entry(bob.page, firstChannel).locator('[data-preview]').textContent(), within).toBe(preview);

    // bob answers with the Send button, in two lines (Shift+Enter); alice reads "bob is typing..." first.
    await input(atBob).pressSequentially('Thanks, paying now');
    await atAlice.getByText('bob is typing...').waitFor(within);
    await input(atBob).press('Shift+Enter');
    await input(atBob).pressSequentially('from my own account');
    expect(await input(atBob).inputValue()).toBe('Thanks, paying now\nfrom my own account');
    await shoot(alice, 'typing-alice-partner');
    await atBob.getByRole('button', { name: 'Send', exact: true }).click();
    await own(atBob, 'from my own account').waitFor(within);
    const answer = fromPartner(atAlice, 'Thanks, paying now');
    await answer.waitFor(within);
    expect(await answer.textContent()).toContain('Thanks, paying now\nfrom my own account');
    expect(await answer.getByText('@bob', { exact: true }).count()).toBe(1);

    // A whitespace-only message is not sent, by Enter nor by Send (disabled); the next real one arrives alone.
    const countAtBob = await messages(atBob).count();
    await input(atAlice).fill('   \n  ');
    expect(await atAlice.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await input(atAlice).press('Enter');
    await input(atAlice).fill('Received your message');
    await input(atAlice).press('Enter');
    await fromPartner(atBob, 'Received your message').waitFor(within);
    expect(await messages(atBob).count()).toBe(countAtBob + 1);
    expect(await messages(atAlice).count()).toBe(countAtBob + 1);
    // Alternating sides: own right (alice's), partner left.
    const sides = await messages(atAlice).evaluateAll((items) => items.map((item) => item.getAttribute('data-from')));
    expect(sides).toEqual(['system', 'own', 'partner', 'own']);
    await shoot(alice, 'conversation-alice', ['dark', 'light', 'mobile-dark']);
    await shoot(bob, 'conversation-bob', ['light', 'mobile-light']);
    expect(await notReloaded(alice.page)).toBe(true);
    expect(await notReloaded(bob.page)).toBe(true);
  });

  it('bob marks it paid: alice sees it live, with "Release Crypto" for her and "Raise Dispute" for both', async () => {
    const atAlice = pane(alice.page, firstChannel);
    const atBob = pane(bob.page, firstChannel);
    await actions(atBob).getByRole('button', { name: 'Mark Paid' }).click();
    await toast(bob.page, 'Action Performed!').waitFor(within);
    await expect.poll(() => atBob.getAttribute('data-buyer-paid'), within).toBe('true');
    await expect.poll(() => actionLabels(atBob), within).toEqual(['Raise Dispute']);

    await expect.poll(() => atAlice.getAttribute('data-buyer-paid'), within).toBe('true');
    await expect.poll(() => actionLabels(atAlice), within).toEqual(['Raise Dispute', 'Release Crypto']);
    const paid = /^bob marked the payment as sent\. alice, release the coin once it has arrived\.$/;
    await system(atAlice, paid).waitFor(within);
    await system(atBob, paid).waitFor(within);
    // Still pending: the chat goes on.
    expect(await input(atAlice).count()).toBe(1);
    await standingStill(toast(bob.page, 'Action Performed!'));
    // On a laptop too, the toast keeps clear of the chat's input, Send and the trade's buttons.
    await toastsClearOf(bob.page, atBob);
    await shoot(bob, 'paid-bob', ['light', 'mobile-light']);
    await shoot(alice, 'paid-alice', ['dark', 'light', 'mobile-dark']);
    expect(await notReloaded(alice.page)).toBe(true);
  });

  it('alice releases after confirming with her password: both see the trade completed without reloading, and bob’s /trades says so', async () => {
    const atAlice = pane(alice.page, firstChannel);
    const atBob = pane(bob.page, firstChannel);
    await actions(atAlice).getByRole('button', { name: 'Release Crypto' }).click();
    const dialog = alice.page.getByRole('alertdialog', { name: 'Release Crypto' });
    await dialog.waitFor();
    await dialog.getByText('Release the crypto to bob only once their payment has arrived. It cannot be undone.').waitFor();
    // The second proof (docs/rules.md "Trades"): her password, asked in the dialog.
    const password = dialog.getByRole('textbox', { name: 'Your password' });
    await password.waitFor();
    expect(await password.getAttribute('name')).toBe('password');
    expect(await dialog.getByRole('button', { name: 'Confirm Release' }).isDisabled()).toBe(true);
    await shoot(alice, 'release-confirm', ['dark', 'light', 'mobile-dark', 'mobile-light']);
    // Cancel leaves everything as it was.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await atAlice.getAttribute('data-status')).toBe('pending');
    // A wrong password: the server's sentence in the dialog, which stays open with the input emptied.
    await actions(atAlice).getByRole('button', { name: 'Release Crypto' }).click();
    await password.fill('not-her-password');
    await dialog.getByRole('button', { name: 'Confirm Release' }).click();
    await dialog.getByRole('alert').getByText('Please confirm the release with your password.').waitFor(within);
    await expect.poll(() => password.inputValue(), within).toBe('');
    expect(await atAlice.getAttribute('data-status')).toBe('pending');
    await shoot(alice, 'release-refused', ['dark', 'mobile-light']);
    // The right one releases.
    await password.fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm Release' }).click();
    await dialog.waitFor({ state: 'detached', ...within });
    await toast(alice.page, 'Action Performed!').waitFor(within);

    for (const [page, conversation] of [
      [alice.page, atAlice],
      [bob.page, atBob],
    ] as const) {
      await expect.poll(() => conversation.getAttribute('data-status'), within).toBe('completed');
      await conversation.locator('header [data-status="completed"]').waitFor(within);
      await input(conversation).waitFor({ state: 'detached', ...within });
      await system(conversation, /^alice released .+ to bob\. Trade completed\.$/).waitFor(within);
      expect(await actions(conversation).getByRole('button').count()).toBe(0);
      await expect.poll(() => entry(page, firstChannel).getAttribute('data-status'), within).toBe('completed');
      expect(await notReloaded(page)).toBe(true);
    }
    await standingStill(toast(alice.page, 'Action Performed!'));
    await shoot(alice, 'completed-alice', ['dark', 'light', 'mobile-dark']);
    await shoot(bob, 'completed-bob', ['light', 'dark', 'mobile-light']);

    // Finished, with the rating form showing: the messages keep at least half of a laptop's and of a phone's height.
    for (const who of [alice, bob]) {
      const conversation = pane(who.page, firstChannel);
      await conversation.getByRole('form', { name: /^Rate / }).waitFor(within);
      await summary(conversation).waitFor(within);
      for (const size of [{ width: 1280, height: 720 }, MOBILE]) {
        await who.page.setViewportSize(size);
        await transitionsDone(who.page);
        expect(await messageListHeight(conversation), `${who.name} at ${size.width}×${size.height}`).toBeGreaterThanOrEqual(size.height / 2);
      }
      await who.page.setViewportSize({ width: who.width, height: who.height });
    }
    await dismissToasts(alice.page);
    await shootRoom(alice, atAlice, 'finished-alice');

    await bob.page.goto(`${product.baseUrl}/trades`);
    const row = bob.page.getByRole('row').filter({ hasText: 'alice' }).first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/buy/i);
    expect(await row.getByText('completed', { exact: true }).count()).toBe(1);
  });

  it('a second trade, carol’s on a phone: one column at a time, and a message sent while alice is offline shows once she is back', async () => {
    carol = await trader('carol', 'light', MOBILE);
    secondChannel = await buyFromAlice(carol);
    const atCarol = pane(carol.page, secondChannel);
    await standingStill(toast(carol.page, 'Trade Opened!'));
    await toastsClearOf(carol.page, atCarol);
    await shoot(carol, 'opened-carol', ['mobile-light']);
    await dismissToasts(carol.page);

    // 390 px: the conversation alone, with a way back to the list, and back again.
    const listColumn = carol.page.locator('[data-column="list"]');
    const conversationColumn = carol.page.locator('[data-column="conversation"]');
    expect(await listColumn.isVisible()).toBe(false);
    await atCarol.getByRole('button', { name: 'Back to conversations' }).click();
    await listColumn.waitFor();
    await conversationColumn.waitFor({ state: 'hidden' });
    await shoot(carol, 'list-carol', ['mobile-light', 'mobile-dark']);
    await entry(carol.page, secondChannel).getByRole('button').click();
    await atCarol.waitFor();
    expect(await listColumn.isVisible()).toBe(false);

    // alice, still on /chat with bob's trade open, sees carol's arrive at the top of her list and opens it.
    const aliceEntry = entry(alice.page, secondChannel);
    await aliceEntry.waitFor(within);
    expect(await alice.page.getByRole('list', { name: 'Conversations' }).locator('li').first().getAttribute('data-channel')).toBe(secondChannel);
    await aliceEntry.getByRole('button').click();
    const atAlice = pane(alice.page, secondChannel);
    await atAlice.waitFor();
    expect(await notReloaded(alice.page)).toBe(true);

    await input(atCarol).fill('Hello alice');
    await atAlice.getByText('carol is typing...').waitFor(within);
    await input(atCarol).press('Enter');
    await fromPartner(atAlice, 'Hello alice').waitFor(within);

    // alice's connection drops: the screen says it is reconnecting.
    const connection = alice.page.locator('[data-connection]');
    expect(await connection.getAttribute('data-connection')).toBe('live');
    await alice.network.goOffline();
    await alice.page.locator('[data-connection="offline"]', { hasText: 'Reconnecting…' }).waitFor({ timeout: 30_000 });
    await shoot(alice, 'offline-alice', ['dark', 'light']);

    // Meanwhile carol writes; once alice is back, the banner goes and the message is there (refetched).
    await input(atCarol).fill('Sent while you were offline');
    await input(atCarol).press('Enter');
    await own(atCarol, 'Sent while you were offline').waitFor(within);
    expect(await fromPartner(atAlice, 'Sent while you were offline').count()).toBe(0);
    await alice.network.goOnline();
    await alice.page.locator('[data-connection="live"]').waitFor({ state: 'attached', timeout: 30_000 });
    await fromPartner(atAlice, 'Sent while you were offline').waitFor(within);
    // And live again afterwards.
    await input(atCarol).fill('Are you back?');
    await input(atCarol).press('Enter');
    await fromPartner(atAlice, 'Are you back?').waitFor(within);
    expect(await notReloaded(alice.page)).toBe(true);
    await shoot(carol, 'conversation-carol', ['mobile-light', 'mobile-dark']);
  });

  it('carol marks it paid and a dispute is raised with a reason: both see it live', async () => {
    const atAlice = pane(alice.page, secondChannel);
    const atCarol = pane(carol.page, secondChannel);
    await actions(atCarol).getByRole('button', { name: 'Mark Paid' }).click();
    await toast(carol.page, 'Action Performed!').waitFor(within);
    await expect.poll(() => actionLabels(atAlice), within).toEqual(['Raise Dispute', 'Release Crypto']);
    await expect.poll(() => actionLabels(atCarol), within).toEqual(['Raise Dispute']);
    await standingStill(toast(carol.page, 'Action Performed!'));
    // On the phone the toast keeps clear of the input and the trade's buttons (it drops from the top).
    await toastsClearOf(carol.page, atCarol);
    await shoot(carol, 'paid-carol', ['mobile-light', 'mobile-dark']);
    await dismissToasts(carol.page);

    // carol opens the dialog: Submit waits for a reason; she thinks again and cancels.
    await actions(atCarol).getByRole('button', { name: 'Raise Dispute' }).click();
    const carolDialog = carol.page.getByRole('dialog', { name: 'Raise Dispute' });
    await carolDialog.waitFor();
    const carolReason = carolDialog.locator('textarea[name="reason"]');
    expect(await carolDialog.getByLabel('Reason').getAttribute('name')).toBe('reason');
    expect(await carolDialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
    await carolDialog.getByText('Please enter the reason for your dispute').waitFor();
    await carolReason.fill('   ');
    expect(await carolDialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
    await shoot(carol, 'dispute-dialog-carol', ['mobile-light', 'mobile-dark']);
    await carolDialog.getByRole('button', { name: 'Cancel' }).click();
    await carolDialog.waitFor({ state: 'detached' });

    // alice raises it with a reason.
    await actions(atAlice).getByRole('button', { name: 'Raise Dispute' }).click();
    const dialog = alice.page.getByRole('dialog', { name: 'Raise Dispute' });
    await dialog.waitFor();
    const submit = dialog.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByText('Please enter the reason for your dispute').waitFor();
    await shoot(alice, 'dispute-dialog-empty', ['dark', 'light']);
    const reason = 'No payment has arrived in my account after 30 minutes.';
    await dialog.locator('textarea[name="reason"]').fill(reason);
    await expect.poll(() => submit.isDisabled(), within).toBe(false);
    expect(await dialog.getByText('Please enter the reason for your dispute').count()).toBe(0);
    await shoot(alice, 'dispute-dialog', ['dark', 'light', 'mobile-dark']);
    await submit.click();
    await dialog.waitFor({ state: 'detached', ...within });
    await toast(alice.page, 'Action Performed!').waitFor(within);

    const raised = `alice raised a dispute. The trade is frozen until a moderator settles it. Reason: ${reason}`;
    for (const [page, conversation] of [
      [alice.page, atAlice],
      [carol.page, atCarol],
    ] as const) {
      await expect.poll(() => conversation.getAttribute('data-dispute-raised'), within).toBe('true');
      await system(conversation, raised).waitFor(within);
      // Frozen: no actions; still pending, so the chat goes on.
      await expect.poll(() => actions(conversation).getByRole('button').count(), within).toBe(0);
      expect(await conversation.getAttribute('data-status')).toBe('pending');
      expect(await input(conversation).count()).toBe(1);
      expect(await notReloaded(page)).toBe(true);
    }
    await input(atCarol).fill('I did pay, here is the reference');
    await input(atCarol).press('Enter');
    await fromPartner(atAlice, 'I did pay, here is the reference').waitFor(within);
    await standingStill(toast(alice.page, 'Action Performed!'));
    await shoot(alice, 'disputed-alice', ['dark', 'light']);
    await shoot(carol, 'disputed-carol', ['mobile-light', 'mobile-dark']);
  });
});

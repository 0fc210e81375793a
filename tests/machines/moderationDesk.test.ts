import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SimulatedClock, createActor } from 'xstate';
import type { DisputeDetail, DisputeSummary } from '../../contracts/moderation.ts';
import { bindModerationDesk } from '../../src/machines/moderationDesk/moderationDesk.actors.ts';
import { moderationDeskMachine } from '../../src/machines/moderationDesk/moderationDesk.machine.ts';
import { deskRules, isResolvable, messageProblem, resolutionProblem, settled } from '../../src/machines/moderationDesk/moderationDesk.rules.ts';
import {
  clipReason,
  selectCanConfirm,
  selectCanSend,
  selectDetail,
  selectDetailView,
  selectDialogOutcome,
  selectDisputeRows,
  selectDraft,
  selectDraftError,
  selectIsResolving,
  selectIsSettled,
  selectListView,
  selectMessageViews,
  selectResolution,
  selectResolutionError,
  selectSettlementButtons,
  waitingText,
} from '../../src/machines/moderationDesk/moderationDesk.selectors.ts';
import { ApiError, createApi } from '../../src/services/api.ts';
import { createModerationService } from '../../src/services/moderation.ts';
import { fakeRealtime } from '../support/chat.ts';
import { RAISED_AT, disputeDetail, disputeSummary, moderationDeps, moderationMessage } from '../support/moderation.ts';

const MINUTE = 60_000;
const MODERATION = 'private-moderation';
const TRADE = 'private-trade-1';
/** The desk's "now": 2 h 14 min after the first dispute was raised. */
const NOW = Date.parse(RAISED_AT) + (2 * 60 + 14) * MINUTE;

beforeEach(() => {
  // Only the Date is faked: the desk reads the time from it; the chart's own delays run on a SimulatedClock.
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => vi.useRealTimers());

/** The desk started (optionally on a dispute), with the first list answered unless `list` is null. */
async function startDesk({ list = [disputeSummary(1), disputeSummary(2)] as DisputeSummary[] | null, channel = null as string | null } = {}) {
  const harness = moderationDeps(undefined, fakeRealtime('connected'));
  const clock = new SimulatedClock();
  const actor = createActor(bindModerationDesk(harness.deps), { input: { channel }, clock }).start();
  if (list) await harness.calls.answer('list', list);
  const snapshot = () => actor.getSnapshot();
  return { ...harness, actor, clock, snapshot };
}

/** The desk with dispute 1 open. */
async function openDispute(detail: DisputeDetail = disputeDetail(1)) {
  const desk = await startDesk();
  desk.actor.send({ type: 'dispute.select', channel: detail.channel });
  await desk.calls.answer('get', detail);
  return desk;
}

describe('the wait and the reason as a row shows them', () => {
  it.each([
    [0, 'Waiting less than a minute'],
    [0.5, 'Waiting less than a minute'],
    [1, 'Waiting 1 min'],
    [59, 'Waiting 59 min'],
    [60, 'Waiting 1 h'],
    [134, 'Waiting 2 h 14 min'],
    [24 * 60, 'Waiting 1 d'],
    [27 * 60 + 5, 'Waiting 1 d 3 h'],
    [-5, 'Waiting less than a minute'],
  ])('%s minutes: %s', (minutes, text) => {
    expect(waitingText(RAISED_AT, Date.parse(RAISED_AT) + minutes * MINUTE)).toBe(text);
  });

  it('a long reason is clipped at 90 characters with an ellipsis; a short one stays whole', () => {
    expect(clipReason('short')).toBe('short');
    expect(clipReason('x'.repeat(90))).toBe('x'.repeat(90));
    expect(clipReason(`${'x'.repeat(89)} tail`)).toBe(`${'x'.repeat(89)}…`);
  });
});

describe('the desk’s rules (moderationDesk.rules.ts)', () => {
  const facts = {
    awaiting: { status: 'pending', buyer_paid: false, dispute_raised: false },
    paid: { status: 'pending', buyer_paid: true, dispute_raised: false },
    disputed: { status: 'pending', buyer_paid: true, dispute_raised: true },
    completed: { status: 'completed', buyer_paid: true, dispute_raised: false },
    cancelled: { status: 'cancelled', buyer_paid: false, dispute_raised: false },
  } as const;

  it.each([
    ['disputed', true],
    ['awaiting', false],
    ['paid', false],
    ['completed', false],
    ['cancelled', false],
  ] as const)('a %s trade may be settled: %s (both ways alike)', (name, expected) => {
    const detail = disputeDetail(1, facts[name]);
    expect(isResolvable(detail, 'release')).toBe(expected);
    expect(isResolvable(detail, 'refund')).toBe(expected);
    expect(isResolvable(null, 'release')).toBe(false);
    expect(isResolvable(detail, null)).toBe(false);
  });

  it('settling moves the facts as the lifecycle chart does and records the resolution', () => {
    const at = '2026-03-05T15:00:00.000Z';
    expect(settled(disputeDetail(1), 'release', 'Paid in full', at)).toMatchObject({
      ...facts.completed,
      resolution: { outcome: 'release', text: 'Paid in full', resolved_at: at },
    });
    expect(settled(disputeDetail(1), 'refund', 'No payment', at)).toMatchObject({
      ...facts.cancelled,
      resolution: { outcome: 'refund', text: 'No payment', resolved_at: at },
    });
    const done = disputeDetail(1, facts.completed);
    expect(settled(done, 'refund', 'late', at)).toBe(done);
  });

  it('a resolution must be written, at most 2,000 characters', () => {
    expect(resolutionProblem('')).toBe('Please write the resolution');
    expect(resolutionProblem('   ')).toBe('Please write the resolution');
    expect(resolutionProblem('x'.repeat(2000))).toBeUndefined();
    expect(resolutionProblem('x'.repeat(2001))).toBe('A resolution can be at most 2,000 characters');
    expect(deskRules.isReasonWritten(undefined, { reason: ' Paid ' })).toBe(true);
  });

  it('a message is sent only with text, and only into a pending trade', () => {
    expect(messageProblem('x'.repeat(2001))).toBeDefined();
    expect(deskRules.canSend(undefined, { text: 'hello', detail: disputeDetail(1) })).toBe(true);
    expect(deskRules.canSend(undefined, { text: '  ', detail: disputeDetail(1) })).toBe(false);
    expect(deskRules.canSend(undefined, { text: 'hello', detail: disputeDetail(1, facts.completed) })).toBe(false);
    expect(deskRules.canSend(undefined, { text: 'hello', detail: null })).toBe(false);
  });
});

describe('the service (market/moderation/)', () => {
  function serviceAnswering(answer: { status: number; body: unknown }) {
    const requests: { body: unknown; headers: Headers }[] = [];
    const toasts: string[] = [];
    const api = createApi({
      baseUrl: 'http://peerex.test/api/',
      getToken: () => 'token',
      onSessionExpired: () => {},
      onError: (message) => void toasts.push(message),
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
      fetch: async (_url, init) => {
        requests.push({ body: JSON.parse(String(init?.body)), headers: new Headers(init?.headers) });
        return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
      },
    });
    return { service: createModerationService(api), requests, toasts };
  }

  it('list and get ask by the contract, parse the answer, and fail quietly (the desk shows its own error)', async () => {
    const rows = [disputeSummary(1)];
    const ok = serviceAnswering({ status: 200, body: { success: true, info: rows } });
    expect(await ok.service.list()).toEqual(rows);
    expect(ok.requests[0]!.body).toEqual({ type: 'list' });
    const detail = disputeDetail(1);
    const got = serviceAnswering({ status: 200, body: { success: true, info: detail } });
    expect(await got.service.get({ channel: 'trade-1' })).toEqual(detail);
    expect(got.requests[0]!.body).toEqual({ type: 'get', channel: 'trade-1' });
    const refused = serviceAnswering({ status: 403, body: { success: false, info: 'Moderators only' } });
    await expect(refused.service.list()).rejects.toThrow('Moderators only');
    expect(refused.toasts).toEqual([]);
  });

  it('message answers the stored message; resolve answers its sentence, and a refusal is a red toast', async () => {
    const stored = moderationMessage(9, { sender: 'Moderator', from_moderator: true, text: 'Send a receipt' });
    const sent = serviceAnswering({ status: 200, body: { success: true, info: stored } });
    expect(await sent.service.message({ channel: 'trade-1', text: 'Send a receipt' })).toEqual(stored);
    expect(sent.requests[0]!.body).toEqual({ type: 'message', channel: 'trade-1', text: 'Send a receipt' });
    const resolved = serviceAnswering({ status: 200, body: { success: true, info: 'Dispute settled: released to alice.' } });
    expect(await resolved.service.resolve({ channel: 'trade-1', outcome: 'release', resolution: 'Paid' })).toBe('Dispute settled: released to alice.');
    expect(resolved.requests[0]!.body).toEqual({ type: 'resolve', channel: 'trade-1', outcome: 'release', resolution: 'Paid' });
    const late = serviceAnswering({ status: 409, body: { success: false, info: 'This dispute is already settled.' } });
    await expect(late.service.resolve({ channel: 'trade-1', outcome: 'refund', resolution: 'x' })).rejects.toThrow('This dispute is already settled.');
    expect(late.toasts).toEqual(['This dispute is already settled.']);
  });
});

describe('the list', () => {
  it('loads the disputes oldest first, as the server orders them, each with its wait on the desk’s clock', async () => {
    const { snapshot, calls } = await startDesk();
    expect(calls.inputs('list')).toEqual([undefined]);
    expect(selectListView(snapshot())).toBe('ready');
    expect(selectDisputeRows(snapshot()).map((row) => [row.channel, row.waiting])).toEqual([
      ['trade-1', 'Waiting 2 h 13 min'],
      ['trade-2', 'Waiting 2 h 12 min'],
    ]);
  });

  it('shows a loading state first, then "empty" when there is nothing to settle', async () => {
    const { snapshot, calls } = await startDesk({ list: null });
    expect(selectListView(snapshot())).toBe('loading');
    expect(snapshot().hasTag('busy')).toBe(true);
    await calls.answer('list', []);
    expect(selectListView(snapshot())).toBe('empty');
  });

  it('a failed first read shows the error; "Try again" reads again', async () => {
    const { snapshot, calls, actor } = await startDesk({ list: null });
    await calls.fail('list');
    expect(selectListView(snapshot())).toBe('failed');
    actor.send({ type: 'list.retry' });
    expect(selectListView(snapshot())).toBe('loading');
    await calls.answer('list', [disputeSummary(1)]);
    expect(selectListView(snapshot())).toBe('ready');
    expect(calls.count('list')).toBe(2);
  });

  it('the wait moves on every minute (the named delay waitingTick)', async () => {
    const { snapshot, clock } = await startDesk();
    vi.setSystemTime(NOW + MINUTE);
    clock.increment(MINUTE - 1);
    expect(selectDisputeRows(snapshot())[0]!.waiting).toBe('Waiting 2 h 13 min');
    clock.increment(1);
    expect(selectDisputeRows(snapshot())[0]!.waiting).toBe('Waiting 2 h 14 min');
    vi.setSystemTime(NOW + 47 * MINUTE);
    clock.increment(MINUTE);
    expect(selectDisputeRows(snapshot())[0]!.waiting).toBe('Waiting 3 h');
  });

  it('stays current on private-moderation: a dispute raised or settled anywhere reads the list again', async () => {
    const { snapshot, calls, realtime } = await startDesk();
    expect(realtime.listeners(MODERATION)).toBe(1);
    realtime.emit(MODERATION, 'dispute_raised', { channel: 'trade-3' });
    expect(calls.count('list')).toBe(2);
    expect(selectListView(snapshot())).toBe('ready');
    await calls.answer('list', [disputeSummary(1), disputeSummary(2), disputeSummary(3)]);
    expect(selectDisputeRows(snapshot())).toHaveLength(3);
    realtime.emit(MODERATION, 'dispute_resolved', { channel: 'trade-1' });
    await calls.answer('list', [disputeSummary(2), disputeSummary(3)]);
    expect(selectDisputeRows(snapshot()).map((row) => row.channel)).toEqual(['trade-2', 'trade-3']);
    realtime.emit(MODERATION, 'dispute_resolved', { nonsense: true });
    expect(calls.count('list')).toBe(3);
  });

  it('joining (again) reads the list again; a read on its way is started over', async () => {
    const { calls, realtime, snapshot } = await startDesk({ list: null });
    realtime.accept(MODERATION);
    expect(calls.count('list')).toBe(2);
    // The first read's answer comes too late to count: the desk waits for the read it started over.
    await calls.answer('list', []);
    expect(selectListView(snapshot())).toBe('loading');
    await calls.answer('list', [disputeSummary(1)]);
    expect(selectListView(snapshot())).toBe('ready');
    realtime.accept(MODERATION);
    expect(calls.count('list')).toBe(3);
  });

  it('a failed read again keeps the rows', async () => {
    const { snapshot, calls, realtime } = await startDesk();
    realtime.emit(MODERATION, 'dispute_raised', { channel: 'trade-3' });
    await calls.fail('list');
    expect(selectListView(snapshot())).toBe('ready');
    expect(selectDisputeRows(snapshot())).toHaveLength(2);
  });
});

describe('one dispute', () => {
  it('selecting one reads its facts and chat and listens on its trade’s channel', async () => {
    const { snapshot, calls, realtime, actor } = await startDesk();
    actor.send({ type: 'dispute.select', channel: 'trade-1' });
    expect(selectDetailView(snapshot())).toBe('loading');
    expect(calls.inputs('get')).toEqual([{ channel: 'trade-1' }]);
    await calls.answer('get', disputeDetail(1));
    expect(selectDetailView(snapshot())).toBe('open');
    expect(selectDetail(snapshot())?.payer_account).toBe('A. Liddell, Revolut');
    expect(realtime.listeners(TRADE)).toBe(1);
    actor.send({ type: 'dispute.select', channel: 'trade-1' });
    expect(calls.count('get')).toBe(1);
  });

  it('opens on the dispute the page was opened on (?channel=)', async () => {
    const { snapshot, calls } = await startDesk({ channel: 'trade-2' });
    expect(calls.inputs('get')).toEqual([{ channel: 'trade-2' }]);
    await calls.answer('get', disputeDetail(2));
    expect(selectDetail(snapshot())?.channel).toBe('trade-2');
  });

  it('a dispute that cannot be read shows the error; "Try again" reads again', async () => {
    const { snapshot, calls, actor } = await startDesk({ channel: 'trade-9' });
    await calls.fail('get', new ApiError('Trade not found', 404));
    expect(selectDetailView(snapshot())).toBe('failed');
    actor.send({ type: 'detail.retry' });
    expect(calls.count('get')).toBe(2);
    await calls.answer('get', disputeDetail(9));
    expect(selectDetailView(snapshot())).toBe('open');
  });

  it('another dispute replaces it: its channel left, its draft gone; closing goes back to the list', async () => {
    const { snapshot, calls, realtime, actor } = await openDispute();
    actor.send({ type: 'message.change', value: 'half written' });
    actor.send({ type: 'dispute.select', channel: 'trade-2' });
    expect(realtime.listeners(TRADE)).toBe(0);
    expect(selectDraft(snapshot())).toBe('');
    await calls.answer('get', disputeDetail(2));
    expect(realtime.listeners('private-trade-2')).toBe(1);
    actor.send({ type: 'dispute.close' });
    expect(selectDetailView(snapshot())).toBe('none');
    expect(realtime.listeners('private-trade-2')).toBe(0);
  });

  it('tells the moderator’s, the system’s and each party’s messages apart', async () => {
    const { snapshot, realtime } = await openDispute();
    realtime.emit(TRADE, 'new_message', moderationMessage(4, { sender: 'Moderator', from_moderator: true, text: 'Receipt, please' }));
    expect(selectMessageViews(snapshot()).map((message) => [message.id, message.from])).toEqual([
      [1, 'system'],
      [2, 'buyer'],
      [3, 'seller'],
      [4, 'moderator'],
    ]);
  });

  it('live: a message heard shows once; a trade event or a join reads the facts again, keeping what was heard', async () => {
    const { snapshot, calls, realtime } = await openDispute();
    const heard = moderationMessage(4, { sender: 'bob', text: 'Checking now' });
    realtime.emit(TRADE, 'new_message', heard);
    realtime.emit(TRADE, 'new_message', heard);
    realtime.emit(TRADE, 'new_message', { id: 'not a message' });
    expect(selectMessageViews(snapshot()).map((message) => message.id)).toEqual([1, 2, 3, 4]);
    for (const event of ['payment_marked', 'coin_released', 'trade_cancelled', 'dispute_raised', 'dispute_resolved']) {
      realtime.emit(TRADE, event, {});
    }
    // Each event while a read is on its way starts it over: only the last read's answer counts.
    expect(calls.count('get')).toBe(6);
    const settledDetail = disputeDetail(1, { status: 'completed', dispute_raised: false, resolution: { outcome: 'release', text: 'Paid', resolved_at: RAISED_AT } });
    while (calls.waiting('get') > 1) await calls.answer('get', settledDetail);
    expect(selectIsSettled(snapshot())).toBe(false);
    await calls.answer('get', disputeDetail(1));
    expect(selectMessageViews(snapshot()).map((message) => message.id)).toEqual([1, 2, 3, 4]);
    realtime.accept(TRADE);
    expect(calls.count('get')).toBe(7);
    await calls.answer('get', settledDetail);
    expect(selectIsSettled(snapshot())).toBe(true);
  });
});

describe('writing in the chat', () => {
  it('sends the trimmed text as Moderator; the input clears once stored', async () => {
    const { snapshot, calls, actor } = await openDispute();
    expect(selectCanSend(snapshot())).toBe(false);
    actor.send({ type: 'message.change', value: '  Please send the receipt  ' });
    expect(selectCanSend(snapshot())).toBe(true);
    actor.send({ type: 'message.send' });
    expect(snapshot().hasTag('busy')).toBe(true);
    expect(calls.inputs('message')).toEqual([{ channel: 'trade-1', text: 'Please send the receipt' }]);
    actor.send({ type: 'message.send' });
    expect(calls.count('message')).toBe(1);
    await calls.answer('message', moderationMessage(4, { sender: 'Moderator', from_moderator: true, text: 'Please send the receipt' }));
    expect(selectDraft(snapshot())).toBe('');
    expect(selectMessageViews(snapshot()).at(-1)).toMatchObject({ id: 4, from: 'moderator' });
  });

  it('a refused message keeps its text; a too-long one says why and is not sent', async () => {
    const { snapshot, calls, actor } = await openDispute();
    actor.send({ type: 'message.change', value: 'hello' });
    actor.send({ type: 'message.send' });
    await calls.fail('message');
    expect(selectDraft(snapshot())).toBe('hello');
    actor.send({ type: 'message.change', value: 'x'.repeat(2001) });
    expect(selectDraftError(snapshot())).toBe('A message can be at most 2,000 characters');
    actor.send({ type: 'message.send' });
    expect(calls.count('message')).toBe(1);
  });

  it('no message goes into a settled trade', async () => {
    const { snapshot, actor } = await openDispute(disputeDetail(1, { status: 'cancelled', buyer_paid: false, dispute_raised: false }));
    actor.send({ type: 'message.change', value: 'hello' });
    expect(selectCanSend(snapshot())).toBe(false);
  });
});

describe('settling', () => {
  it('each button opens the dialog for its outcome; Confirm waits for a written resolution; Cancel closes it', async () => {
    const { snapshot, actor } = await openDispute();
    expect(selectSettlementButtons(snapshot()).map((button) => [button.label, button.enabled])).toEqual([
      ['Release to buyer', true],
      ['Refund seller', true],
    ]);
    actor.send({ type: 'resolve.refund' });
    expect(selectDialogOutcome(snapshot())).toBe('refund');
    expect(selectSettlementButtons(snapshot()).every((button) => !button.enabled)).toBe(true);
    expect(selectCanConfirm(snapshot())).toBe(false);
    expect(selectResolutionError(snapshot())).toBe('Please write the resolution');
    actor.send({ type: 'resolution.change', value: '   ' });
    expect(selectCanConfirm(snapshot())).toBe(false);
    actor.send({ type: 'resolution.change', value: 'No payment arrived' });
    expect(selectCanConfirm(snapshot())).toBe(true);
    actor.send({ type: 'dialog.dismiss' });
    expect(selectDialogOutcome(snapshot())).toBeNull();
    actor.send({ type: 'resolve.release' });
    expect(selectDialogOutcome(snapshot())).toBe('release');
    expect(selectResolution(snapshot())).toBe('');
  });

  it('release: the call, a refused dismissal while it runs, then the toast, the trade settled at once, and the facts and list read again', async () => {
    const { snapshot, calls, actor, notices } = await openDispute();
    actor.send({ type: 'resolve.release' });
    actor.send({ type: 'resolution.change', value: '  Bank statement shows the payment  ' });
    actor.send({ type: 'resolution.confirm' });
    expect(selectIsResolving(snapshot())).toBe(true);
    expect(calls.inputs('resolve')).toEqual([{ channel: 'trade-1', outcome: 'release', resolution: 'Bank statement shows the payment' }]);
    actor.send({ type: 'dialog.dismiss' });
    expect(selectDialogOutcome(snapshot())).toBe('release');
    await calls.answer('resolve', 'Dispute settled: the coins went to alice.');
    expect(notices).toEqual([{ title: 'Dispute settled', description: 'Dispute settled: the coins went to alice.', type: 'success' }]);
    expect(selectDialogOutcome(snapshot())).toBeNull();
    expect(selectIsSettled(snapshot())).toBe(true);
    expect(selectDetail(snapshot())).toMatchObject({
      status: 'completed',
      resolution: { outcome: 'release', text: 'Bank statement shows the payment', resolved_at: new Date(NOW).toISOString() },
    });
    expect(selectSettlementButtons(snapshot()).every((button) => !button.enabled)).toBe(true);
    expect(calls.count('get')).toBe(2);
    expect(calls.count('list')).toBe(2);
    await calls.answer('list', [disputeSummary(2)]);
    expect(selectDisputeRows(snapshot()).map((row) => row.channel)).toEqual(['trade-2']);
    expect(calls.count('list')).toBe(2);
  });

  it('refund settles the trade cancelled', async () => {
    const { snapshot, calls, actor } = await openDispute();
    actor.send({ type: 'resolve.refund' });
    actor.send({ type: 'resolution.change', value: 'No payment' });
    actor.send({ type: 'resolution.confirm' });
    await calls.answer('resolve', 'Dispute settled.');
    expect(selectDetail(snapshot())).toMatchObject({ status: 'cancelled', resolution: { outcome: 'refund', text: 'No payment' } });
  });

  it('a settlement made while the list is being read reads it once more afterwards', async () => {
    const { calls, actor, realtime } = await openDispute();
    realtime.emit(MODERATION, 'dispute_raised', { channel: 'trade-3' });
    actor.send({ type: 'resolve.release' });
    actor.send({ type: 'resolution.change', value: 'Paid' });
    actor.send({ type: 'resolution.confirm' });
    await calls.answer('resolve', 'ok');
    expect(calls.count('list')).toBe(2);
    await calls.answer('list', [disputeSummary(1), disputeSummary(2), disputeSummary(3)]);
    expect(calls.count('list')).toBe(3);
  });

  it('refused (another moderator settled first): the text stays, the facts are read again, and settled meanwhile closes the dialog', async () => {
    const { snapshot, calls, actor, notices } = await openDispute();
    actor.send({ type: 'resolve.refund' });
    actor.send({ type: 'resolution.change', value: 'No payment' });
    actor.send({ type: 'resolution.confirm' });
    await calls.fail('resolve', new ApiError('This dispute is already settled.', 409));
    expect(notices).toEqual([]);
    expect(selectDialogOutcome(snapshot())).toBe('refund');
    expect(selectResolution(snapshot())).toBe('No payment');
    expect(calls.count('get')).toBe(2);
    await calls.answer('get', disputeDetail(1, { status: 'completed', dispute_raised: false, resolution: { outcome: 'release', text: 'Paid', resolved_at: RAISED_AT } }));
    expect(selectDialogOutcome(snapshot())).toBeNull();
    expect(selectIsSettled(snapshot())).toBe(true);
  });

  it('refused for a passing reason (the network): the dialog stays, ready to try again', async () => {
    const { snapshot, calls, actor } = await openDispute();
    actor.send({ type: 'resolve.release' });
    actor.send({ type: 'resolution.change', value: 'Paid' });
    actor.send({ type: 'resolution.confirm' });
    await calls.fail('resolve');
    await calls.answer('get', disputeDetail(1));
    expect(selectDialogOutcome(snapshot())).toBe('release');
    expect(selectCanConfirm(snapshot())).toBe(true);
  });

  it('nothing to settle on a trade that is not disputed', async () => {
    const { snapshot, actor } = await openDispute(disputeDetail(1, { status: 'completed', dispute_raised: false }));
    expect(selectSettlementButtons(snapshot()).every((button) => !button.enabled)).toBe(true);
    actor.send({ type: 'resolve.release' });
    expect(selectDialogOutcome(snapshot())).toBeNull();
  });
});

describe('the chart as written', () => {
  it('imports only xstate, types, the charts\' shared helpers and the contracts, so it loads in the Stately visualizer as it is', () => {
    const source = readFileSync(resolve('src/machines/moderationDesk/moderationDesk.machine.ts'), 'utf8');
    const imports = source.split('\n').filter((line) => line.startsWith('import '));
    const allowed = (line: string) =>
      line.startsWith('import type ') || line.endsWith("from 'xstate';") || /from '\.\.\/shared\/\w+\.ts';$/.test(line) || /from '(\.\.\/)+contracts\/[\w-]+\.ts';$/.test(line);
    expect(imports.filter((line) => !allowed(line))).toEqual([]);
  });

  it('runs nothing unbound: its actions, actors and rules are stubs until moderationDesk.actors.ts binds them', () => {
    const errors: unknown[] = [];
    const actor = createActor(moderationDeskMachine, { input: { channel: null } });
    actor.subscribe({ error: (error) => void errors.push(error) });
    actor.start();
    expect(String(errors[0])).toMatch(/bound with the chart/);
  });
});

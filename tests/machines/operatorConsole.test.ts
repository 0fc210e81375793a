import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SimulatedClock, createActor, type AnyStateMachine } from 'xstate';
import { OPERATORS_CHANNEL } from '../../contracts/operator.ts';
import { auditFilters, bindAuditLog } from '../../src/machines/auditLog/auditLog.actors.ts';
import { auditLogMachine } from '../../src/machines/auditLog/auditLog.machine.ts';
import { describeChange } from '../../src/machines/auditLog/auditLog.selectors.ts';
import { bindOperatorOverview } from '../../src/machines/operatorOverview/operatorOverview.actors.ts';
import { operatorOverviewMachine } from '../../src/machines/operatorOverview/operatorOverview.machine.ts';
import {
  isNegative,
  selectHasShortfall,
  selectHoldingRows,
  selectLiveness,
  selectOldestWait,
  selectOverview,
} from '../../src/machines/operatorOverview/operatorOverview.selectors.ts';
import { bindReviewQueue } from '../../src/machines/reviewQueue/reviewQueue.actors.ts';
import { ALREADY_DECIDED, reviewQueueMachine } from '../../src/machines/reviewQueue/reviewQueue.machine.ts';
import { selectDialog, selectNotice, selectWithdrawals } from '../../src/machines/reviewQueue/reviewQueue.selectors.ts';
import { bindTraderDossier } from '../../src/machines/traderDossier/traderDossier.actors.ts';
import { traderDossierMachine } from '../../src/machines/traderDossier/traderDossier.machine.ts';
import { canTake, noteProblem, reasonProblem } from '../../src/machines/traderDossier/traderDossier.rules.ts';
import { selectActionButtons, selectDialogStep, selectDossier, selectOutcome } from '../../src/machines/traderDossier/traderDossier.selectors.ts';
import { traderSearchMachine } from '../../src/machines/traderSearch/traderSearch.machine.ts';
import { createApi } from '../../src/services/api.ts';
import { createOperatorService, exportQuery } from '../../src/services/operator.ts';
import { fakeRealtime } from '../support/chat.ts';
import { flush } from '../support/machines.ts';
import {
  GENERATED_AT,
  operatorDeps,
  operatorOverview,
  refusal,
  reviewQueueOf,
  reviewedWithdrawal,
  suspendedDossier,
  traderDossier,
} from '../support/operator.ts';

describe('the service (operator/…)', () => {
  function serviceAnswering(answer: { status: number; body: unknown; headers?: Record<string, string>; raw?: string }) {
    const requests: { url: string; method: string; body: unknown; headers: Headers }[] = [];
    const toasts: string[] = [];
    const expired: string[] = [];
    const api = createApi({
      baseUrl: 'http://peerex.test/api/',
      getToken: () => 'token-1',
      onSessionExpired: () => void expired.push('expired'),
      onError: (message) => void toasts.push(message),
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
      fetch: async (url, init) => {
        requests.push({
          url: String(url),
          method: init?.method ?? 'GET',
          body: init?.body ? JSON.parse(String(init.body)) : undefined,
          headers: new Headers(init?.headers),
        });
        return new Response(answer.raw ?? JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'content-type': 'application/json', ...answer.headers },
        });
      },
    });
    return { service: createOperatorService(api), requests, toasts, expired };
  }

  it('reads ask by the contract and parse the answer; the overview, a trader and the queue fail quietly', async () => {
    const overview = operatorOverview();
    const ok = serviceAnswering({ status: 200, body: { success: true, info: overview } });
    expect(await ok.service.overview()).toEqual(overview);
    expect(ok.requests[0]).toMatchObject({ url: 'http://peerex.test/api/operator/overview/', method: 'POST', body: { type: 'overview' } });
    expect(ok.requests[0]!.headers.get('Authorization')).toBe('Bearer token-1');
    const refused = serviceAnswering({ status: 403, body: { success: false, code: 'operator.operators_only', info: 'Only operators can use the operator console.' } });
    await expect(refused.service.trader({ username: 'bob' })).rejects.toMatchObject({ status: 403, message: 'Only operators can use the operator console.' });
    await expect(refused.service.reviewQueue()).rejects.toThrow('Only operators');
    expect(refused.toasts).toEqual([]);
    expect(refused.requests.map((request) => request.body)).toEqual([{ type: 'get', username: 'bob' }, { type: 'queue' }]);
  });

  it('the search trims what is typed; a refused search is a red toast', async () => {
    const ok = serviceAnswering({ status: 200, body: { success: true, info: { traders: [], paginator: { prev: false, next: false, previous_page: null, next_page: null } } } });
    await ok.service.searchTraders({ query: '  ali ', page: 2 });
    expect(ok.requests[0]).toMatchObject({ url: 'http://peerex.test/api/operator/traders/', body: { type: 'search', query: 'ali', page: 2 } });
    const refused = serviceAnswering({ status: 400, body: { success: false, info: 'A search can be at most 200 characters' } });
    await expect(refused.service.searchTraders({ query: 'x', page: 1 })).rejects.toThrow('A search can be at most 200 characters');
    expect(refused.toasts).toEqual(['A search can be at most 200 characters']);
  });

  it('changes send the action and its reason, answer the server’s sentence (or the console’s own), and are refused quietly', async () => {
    const worded = serviceAnswering({ status: 200, body: { success: true, info: 'bob is suspended.' } });
    expect(await worded.service.act({ username: 'bob', action: 'suspend', reason: 'Fraud' })).toBe('bob is suspended.');
    expect(worded.requests[0]!.body).toEqual({ type: 'suspend', username: 'bob', reason: 'Fraud' });
    const bare = serviceAnswering({ status: 200, body: { success: true, info: { ok: true } } });
    expect(await bare.service.act({ username: 'bob', action: 'end_sessions', reason: 'Lost phone' })).toBe("The trader's sessions are ended.");
    expect(await bare.service.addNote({ username: 'bob', text: 'Called' })).toBe('Note added.');
    expect(await bare.service.decide({ id: 7, decision: 'approve', reason: '' })).toBe('Withdrawal approved.');
    expect(await bare.service.decide({ id: 7, decision: 'reject', reason: 'Mixer' })).toBe('Withdrawal rejected.');
    expect(bare.requests.map((request) => request.body)).toEqual([
      { type: 'end_sessions', username: 'bob', reason: 'Lost phone' },
      { type: 'note', username: 'bob', text: 'Called' },
      { type: 'approve', id: 7 },
      { type: 'reject', id: 7, reason: 'Mixer' },
    ]);
    const late = serviceAnswering({ status: 409, body: { success: false, info: 'This withdrawal was already decided.' } });
    await expect(late.service.decide({ id: 7, decision: 'approve', reason: '' })).rejects.toMatchObject({ status: 409 });
    expect(late.toasts).toEqual([]);
  });

  it('an export is a GET with the bearer token and only the filters that are set; the file keeps the server’s name', async () => {
    const csv = serviceAnswering({ status: 200, body: null, raw: 'id,at\n1,2026\n', headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="audit-2026-03-05.csv"' } });
    const file = await csv.service.download({ kind: 'audit', filters: { actor: ' ops ', action: 'trader_suspended', since: '2026-03-01', target: '' } });
    expect(await file.blob.text()).toBe('id,at\n1,2026\n');
    expect(file.name).toBe('audit-2026-03-05.csv');
    expect(csv.requests[0]).toMatchObject({
      method: 'GET',
      url: 'http://peerex.test/api/operator/audit.csv?actor=ops&action=trader_suspended&since=2026-03-01',
    });
    expect(csv.requests[0]!.headers.get('Authorization')).toBe('Bearer token-1');
    expect(exportQuery('fees', { actor: 'ops', since: '2026-03-01', until: '2026-03-05' })).toBe('operator/fees.csv?since=2026-03-01&until=2026-03-05');
    expect(exportQuery('fees', {})).toBe('operator/fees.csv');
  });

  it('a refused export fails with the server’s sentence (no toast: the page shows it); a 401 signs out', async () => {
    const refused = serviceAnswering({ status: 400, body: { success: false, info: 'since must be a date (YYYY-MM-DD)' } });
    await expect(refused.service.download({ kind: 'fees', filters: { since: 'soon' } })).rejects.toMatchObject({
      status: 400,
      message: 'since must be a date (YYYY-MM-DD)',
    });
    expect(refused.toasts).toEqual([]);
    const over = serviceAnswering({ status: 401, body: { success: false, info: 'Session expired' } });
    await expect(over.service.download({ kind: 'audit', filters: {} })).rejects.toMatchObject({ status: 401 });
    expect(over.expired).toEqual(['expired']);
  });
});

describe('the rules and what the screens read', () => {
  it('a reason and a note are written text, as the contract takes them', () => {
    expect(reasonProblem('')).toBe('Please write the reason');
    expect(reasonProblem('   ')).toBe('Please write the reason');
    expect(reasonProblem('Fraud')).toBeUndefined();
    expect(reasonProblem('x'.repeat(1001))).toBe('A reason can be at most 1,000 characters');
    expect(noteProblem('')).toBe('Please write the note');
    expect(noteProblem('x'.repeat(2001))).toBe('A note can be at most 2,000 characters');
  });

  it('suspend only an active trader, reinstate only a suspended one; a reset and ending sessions at any time', () => {
    expect(['suspend', 'reinstate', 'force_password_reset', 'end_sessions'].map((action) => canTake(traderDossier(), action as never))).toEqual([
      true,
      false,
      true,
      true,
    ]);
    expect(canTake(suspendedDossier(), 'suspend')).toBe(false);
    expect(canTake(suspendedDossier(), 'reinstate')).toBe(true);
    expect(canTake(null, 'end_sessions')).toBe(false);
  });

  it('a shortfall is a difference below zero, never "-0"', () => {
    expect(['-0.5', '-0.00000001', '0.00', '-0', '-0.000', '12', null].map((value) => isNegative(value))).toEqual([true, true, false, false, false, false, false]);
  });

  it('a before and an after read as one line per key', () => {
    expect(describeChange({ role: 'trader' }, { role: 'operator' })).toBe('role: trader → operator');
    expect(describeChange(null, { suspended: true, by: 'ops' })).toBe('by: — → ops; suspended: — → true');
    expect(describeChange(null, null)).toBe('');
  });

  it('the filter bar as the call takes it: only what is set, an action only if it is one', () => {
    expect(auditFilters({ actor: ' ops ', action: '', target: '', since: '2026-03-01', until: '' })).toEqual({ actor: 'ops', since: '2026-03-01' });
    expect(auditFilters({ actor: '', action: 'withdrawal_rejected', target: 'bob', since: '', until: '' })).toEqual({ action: 'withdrawal_rejected', target: 'bob' });
    expect(auditFilters({ actor: '', action: 'drop_table', target: '', since: '', until: '' })).toEqual({});
  });
});

describe('the overview, live on private-operators', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(GENERATED_AT) }));
  afterEach(() => vi.useRealTimers());

  it('shows the first read, then each live overview whole; a payload that is not one is dropped', async () => {
    const harness = operatorDeps(undefined, fakeRealtime('connected'));
    const actor = createActor(bindOperatorOverview(harness.deps, harness.operator), { clock: new SimulatedClock() }).start();
    await harness.calls.answer('overview', operatorOverview());
    expect(harness.realtime.listeners(OPERATORS_CHANNEL)).toBe(1);
    expect(selectLiveness(actor.getSnapshot())).toBe('live');
    expect(selectOldestWait(actor.getSnapshot())).toBe('Oldest waiting 2 h 14 min');
    const later = operatorOverview({ traders: { total: 2000, active_24h: 1, active_7d: 2, suspended: 0 } });
    harness.realtime.emit(OPERATORS_CHANNEL, 'overview', later);
    expect(selectOverview(actor.getSnapshot())).toEqual(later);
    harness.realtime.emit(OPERATORS_CHANNEL, 'overview', { traders: 'lots' });
    expect(selectOverview(actor.getSnapshot())).toEqual(later);
    expect(harness.calls.count('overview')).toBe(1);
    // A change of the review queue, or a join again after a reconnect, reads the numbers again.
    harness.realtime.emit(OPERATORS_CHANNEL, 'reviews', {});
    await harness.calls.answer('overview', operatorOverview());
    harness.realtime.reconnect();
    await flush();
    expect(harness.calls.waiting('overview')).toBe(1);
    actor.stop();
    expect(harness.realtime.listeners(OPERATORS_CHANNEL)).toBe(0);
  });

  it('the shortfall shows on the network that holds less than it owes', async () => {
    const harness = operatorDeps();
    const actor = createActor(bindOperatorOverview(harness.deps, harness.operator), { clock: new SimulatedClock() }).start();
    await harness.calls.answer('overview', operatorOverview());
    expect(selectHoldingRows(actor.getSnapshot()).map((row) => [row.network, row.ticker, row.shortfall])).toEqual([
      ['bitcoin', 'BTC', false],
      ['ethereum', 'ETH', true],
      ['ethereum', 'USDT', false],
    ]);
    expect(selectHasShortfall(actor.getSnapshot())).toBe(true);
    actor.stop();
  });
});

describe('the suspension flow on a trader’s page', () => {
  it('suspends with the reason written, shows the server’s sentence, and reads the page again', async () => {
    const harness = operatorDeps();
    const actor = createActor(bindTraderDossier(harness.deps, harness.operator), { input: { username: 'bob' } }).start();
    await harness.calls.answer('trader', traderDossier());
    actor.send({ type: 'action.choose', action: 'reinstate' });
    expect(selectDialogStep(actor.getSnapshot()), 'reinstate an active trader').toBeNull();
    actor.send({ type: 'action.choose', action: 'suspend' });
    actor.send({ type: 'reason.submit' });
    expect(selectDialogStep(actor.getSnapshot()), 'no reason yet').toBe('writing');
    actor.send({ type: 'reason.change', value: '  Stolen bank accounts ' });
    actor.send({ type: 'reason.submit' });
    actor.send({ type: 'action.confirm' });
    expect(harness.calls.inputs('act')).toEqual([{ username: 'bob', action: 'suspend', reason: 'Stolen bank accounts' }]);
    await harness.calls.answer('act', 'bob is suspended.');
    expect(selectDialogStep(actor.getSnapshot())).toBe('done');
    expect(selectOutcome(actor.getSnapshot())).toBe('bob is suspended.');
    await harness.calls.answer('trader', suspendedDossier());
    expect(selectDossier(actor.getSnapshot())?.suspension?.by).toBe('ops');
    expect(selectActionButtons(actor.getSnapshot()).map((button) => [button.action, button.enabled])).toEqual([
      ['reinstate', false],
      ['force_password_reset', false],
      ['end_sessions', false],
    ]);
    actor.send({ type: 'dialog.dismiss' });
    expect(selectActionButtons(actor.getSnapshot()).every((button) => button.enabled)).toBe(true);
    actor.stop();
  });

  it('a refusal shows the server’s sentence; trying again sends the same reason', async () => {
    const harness = operatorDeps();
    const actor = createActor(bindTraderDossier(harness.deps, harness.operator), { input: { username: 'bob' } }).start();
    await harness.calls.answer('trader', traderDossier());
    actor.send({ type: 'action.choose', action: 'force_password_reset' });
    actor.send({ type: 'reason.change', value: 'Phished' });
    actor.send({ type: 'reason.submit' });
    actor.send({ type: 'action.confirm' });
    await harness.calls.fail('act', refusal(403, 'Only operators can use the operator console.'));
    expect(selectDialogStep(actor.getSnapshot())).toBe('failed');
    expect(selectOutcome(actor.getSnapshot())).toBe('Only operators can use the operator console.');
    actor.send({ type: 'action.confirm' });
    expect(harness.calls.inputs('act')).toEqual([
      { username: 'bob', action: 'force_password_reset', reason: 'Phished' },
      { username: 'bob', action: 'force_password_reset', reason: 'Phished' },
    ]);
    actor.stop();
  });
});

describe('the review decision', () => {
  it('a decision made first by another operator (409) closes the dialog, reads the queue again and says so', async () => {
    const harness = operatorDeps();
    const actor = createActor(bindReviewQueue(harness.deps, harness.operator)).start();
    await harness.calls.answer('reviewQueue', reviewQueueOf(reviewedWithdrawal(7), reviewedWithdrawal(8)));
    actor.send({ type: 'review.approve', id: 7 });
    expect(selectDialog(actor.getSnapshot())?.withdrawal?.id).toBe(7);
    actor.send({ type: 'decision.confirm' });
    expect(harness.calls.inputs('decide')).toEqual([{ id: 7, decision: 'approve', reason: '' }]);
    await harness.calls.fail('decide', refusal(409, 'This withdrawal was already decided.'));
    expect(selectDialog(actor.getSnapshot())).toBeNull();
    expect(selectNotice(actor.getSnapshot())).toBe(ALREADY_DECIDED);
    await harness.calls.answer('reviewQueue', reviewQueueOf(reviewedWithdrawal(8)));
    expect(selectWithdrawals(actor.getSnapshot()).map((row) => row.id)).toEqual([8]);
    expect(harness.notices).toEqual([]);
    actor.stop();
  });

  it('a withdrawal not in the queue cannot be decided; the live `reviews` event reads the queue again', async () => {
    const harness = operatorDeps(undefined, fakeRealtime('connected'));
    const actor = createActor(bindReviewQueue(harness.deps, harness.operator)).start();
    await harness.calls.answer('reviewQueue', reviewQueueOf(reviewedWithdrawal(7)));
    actor.send({ type: 'review.reject', id: 99 });
    expect(selectDialog(actor.getSnapshot())).toBeNull();
    harness.realtime.emit(OPERATORS_CHANNEL, 'reviews', {});
    await harness.calls.answer('reviewQueue', reviewQueueOf());
    expect(selectWithdrawals(actor.getSnapshot())).toEqual([]);
    actor.stop();
  });

  it('a rejection asks for its reason; done, a toast with the server’s sentence', async () => {
    const harness = operatorDeps();
    const actor = createActor(bindReviewQueue(harness.deps, harness.operator)).start();
    await harness.calls.answer('reviewQueue', reviewQueueOf(reviewedWithdrawal(7)));
    actor.send({ type: 'review.reject', id: 7 });
    actor.send({ type: 'decision.confirm' });
    expect(harness.calls.count('decide')).toBe(0);
    actor.send({ type: 'reason.change', value: 'Known mixer' });
    actor.send({ type: 'decision.confirm' });
    await harness.calls.answer('decide', 'Withdrawal rejected: 12,000 USDT returned to bob.');
    expect(harness.notices).toEqual([{ title: 'Withdrawal rejected: 12,000 USDT returned to bob.', type: 'success' }]);
    actor.stop();
  });
});

describe('the audit exports', () => {
  it('the file is handed to the browser under the server’s name, or the console’s own', async () => {
    const harness = operatorDeps();
    const saved: { name: string | null; fallback: string }[] = [];
    const save = (file: { blob: Blob; name: string | null }, fallback: string) => void saved.push({ name: file.name, fallback });
    const actor = createActor(bindAuditLog(harness.deps, harness.operator, save)).start();
    actor.send({ type: 'filter.change', name: 'since', value: '2026-03-01' });
    actor.send({ type: 'export.fees' });
    expect(harness.calls.inputs('download'), 'not applied yet: all days').toEqual([{ kind: 'fees', filters: {} }]);
    await harness.calls.answer('download', { blob: new Blob(['x']), name: null });
    expect(saved).toEqual([{ name: null, fallback: 'fee-income.csv' }]);
    actor.send({ type: 'filters.apply' });
    actor.send({ type: 'export.audit' });
    expect(harness.calls.inputs('download').at(-1)).toEqual({ kind: 'audit', filters: { since: '2026-03-01' } });
    actor.stop();
  });
});

describe('the charts as written', () => {
  const charts = {
    operatorOverview: operatorOverviewMachine,
    traderSearch: traderSearchMachine,
    traderDossier: traderDossierMachine,
    reviewQueue: reviewQueueMachine,
    auditLog: auditLogMachine,
  };

  it.each(Object.keys(charts))('%s imports only xstate, types, the charts’ shared helpers and the contracts', (name) => {
    const source = readFileSync(resolve(`src/machines/${name}/${name}.machine.ts`), 'utf8');
    const imports = source.split('\n').filter((line) => line.startsWith('import '));
    const allowed = (line: string) =>
      line.startsWith('import type ') || line.endsWith("from 'xstate';") || /from '\.\.\/shared\/\w+\.ts';$/.test(line) || /from '(\.\.\/)+contracts\/[\w-]+\.ts';$/.test(line);
    expect(imports.filter((line) => !allowed(line))).toEqual([]);
    // The binding-only helpers (they parse realtime payloads) stay out of the chart.
    expect(source).not.toMatch(/shared\/(channels|operatorsChannel)\.ts/);
  });

  it.each(Object.entries(charts))('%s runs nothing unbound: its first call fails, naming itself', async (name, chart) => {
    const failures: unknown[] = [];
    const actor = createActor(chart as AnyStateMachine, {
      input: { username: 'bob', query: '' },
      inspect: (inspection) => {
        if (inspection.type === '@xstate.event' && inspection.event.type.startsWith('xstate.error.actor.')) failures.push((inspection.event as { error?: unknown }).error);
      },
    });
    actor.subscribe({ error: (error) => void failures.push(error) });
    actor.start();
    await flush();
    expect(String(failures[0]), name).toMatch(/bound with the chart/);
    actor.stop();
  });
});

import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { DisputeDetail } from '../../contracts/moderation.ts';
import { bindModerationDesk } from '../../src/machines/moderationDesk/moderationDesk.actors.ts';
import type { ModerationDeskContext, ModerationDeskInput } from '../../src/machines/moderationDesk/moderationDesk.machine.ts';
import {
  selectCanConfirm,
  selectCanSend,
  selectDetailView,
  selectDialogOutcome,
  selectIsResolving,
  selectIsSettled,
  selectListView,
  selectSettlementButtons,
} from '../../src/machines/moderationDesk/moderationDesk.selectors.ts';
import { Coverage, afterEvent, describePath, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { RAISED_AT, disputeDetail, disputeSummary, moderationDeps, moderationMessage } from '../support/moderation.ts';

/**
 * The desk's chart walked as it is, every invoked actor scripted (the reads, the message, the settlement and
 * both channels). The Date is frozen, so the minute's tick reads the same time and the graph stays finite.
 * Two walks, each with the regions meeting only where they touch: the list on its own (loads, failures,
 * live changes, joins, the minute passing, the channel refused), and one dispute opened by ?channel= (its
 * reads, live changes, the chat, both settlements answered or refused, another moderator settling first,
 * closing and choosing again), with the list's reads a settlement asks for.
 */
vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(RAISED_AT) + 90 * 60_000 });

const srcs = ['loadDisputes', 'loadDispute', 'sendMessage', 'resolveDispute', 'moderationChannel', 'tradeChannel'] as const;
const failure = new Error('Internet server error');
const ticked = afterEvent('waitingTick', 'moderationDesk.clock.ticking');
const open = disputeDetail(1);
/** What a read finds once another moderator settled it. */
const settledElsewhere: DisputeDetail = {
  ...open,
  status: 'completed',
  dispute_raised: false,
  resolution: { outcome: 'release', text: 'Settled by another moderator', resolved_at: RAISED_AT },
};
const stored = moderationMessage(4, { sender: 'Moderator', from_moderator: true, text: 'hello' });
const heard = moderationMessage(5, { sender: 'bob', text: 'Checking' });

type Ctx = ModerationDeskContext;
const on = (snapshot: AnyMachineSnapshot, value: object) => snapshot.matches(value as never);

/** The list region on its own; the dispute is never opened. */
function listEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  const first = context.disputes.length === 0;
  if (on(snapshot, { list: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadDisputes', output: [disputeSummary(1)] },
      { type: 'xstate.error.actor.loadDisputes', error: failure },
    );
    if (first) list.push({ type: 'xstate.done.actor.loadDisputes', output: [] });
    if (first) list.push({ type: 'realtime.disputes.subscribed' }, { type: 'realtime.dispute.changed', channel: 'trade-1' });
  }
  if (on(snapshot, { list: 'refreshing' })) {
    list.push(
      { type: 'xstate.done.actor.refreshDisputes', output: first ? [disputeSummary(1)] : [] },
      { type: 'xstate.error.actor.refreshDisputes', error: failure },
      { type: 'realtime.dispute.changed', channel: 'trade-2' },
      { type: 'realtime.disputes.subscribed' },
    );
  }
  if (on(snapshot, { list: 'ready' }) || on(snapshot, { list: 'empty' })) {
    list.push({ type: 'realtime.dispute.changed', channel: 'trade-2' }, { type: 'realtime.disputes.subscribed' }, ticked);
    if (snapshot.children.moderationChannel) list.push({ type: 'xstate.error.actor.moderationChannel', error: new Error('refused') });
  }
  if (on(snapshot, { list: 'failed' })) list.push({ type: 'list.retry' }, { type: 'realtime.disputes.subscribed' });
  return list;
}

/** One dispute, opened by ?channel=; the list answers its reads and nothing else happens to it. */
function detailEvents(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as Ctx;
  const list: ModelEvent[] = [];
  if (on(snapshot, { list: 'loading' })) {
    list.push({ type: 'xstate.done.actor.loadDisputes', output: [disputeSummary(1)] }, { type: 'xstate.done.actor.loadDisputes', output: [] });
  }
  if (on(snapshot, { list: 'refreshing' })) list.push({ type: 'xstate.done.actor.refreshDisputes', output: [] });
  // The list settles first: the dispute's own steps are walked against a list at rest.
  if (!on(snapshot, { list: 'ready' }) && !on(snapshot, { list: 'empty' })) return list;

  if (on(snapshot, { detail: 'none' })) list.push({ type: 'dispute.select', channel: 'trade-1' });
  if (on(snapshot, { detail: 'loading' })) {
    list.push({ type: 'xstate.done.actor.loadDispute', output: open }, { type: 'xstate.error.actor.loadDispute', error: failure });
  }
  if (on(snapshot, { detail: 'failed' })) list.push({ type: 'detail.retry' }, { type: 'dispute.close' });
  if (!on(snapshot, { detail: 'open' })) return list;

  const settled = context.detail?.status !== 'pending';
  const factsCurrent = on(snapshot, { detail: { open: { facts: 'current' } } });
  const composerIdle = on(snapshot, { detail: { open: { composer: 'idle' } } });
  const settlement = (state: string) => on(snapshot, { detail: { open: { settlement: state } } });
  const quiet = factsCurrent && composerIdle && settlement('idle');

  if (on(snapshot, { detail: { open: { facts: 'refreshing' } } })) {
    list.push(
      { type: 'xstate.done.actor.refreshDispute', output: context.detail?.resolution ? context.detail : open },
      { type: 'xstate.error.actor.refreshDispute', error: failure },
    );
    if (!settled && !context.detail?.messages.some((message) => message.id === heard.id)) {
      list.push({ type: 'xstate.done.actor.refreshDispute', output: settledElsewhere });
    }
    if (settlement('idle') && composerIdle) list.push({ type: 'realtime.trade.changed' }, { type: 'realtime.trade.subscribed' });
  }
  if (quiet) {
    list.push({ type: 'realtime.trade.changed' }, { type: 'realtime.trade.subscribed' }, { type: 'dispute.close' });
    list.push({ type: 'dispute.select', channel: 'trade-1' });
    if (snapshot.children.tradeChannel && !settled) list.push({ type: 'xstate.error.actor.tradeChannel', error: new Error('refused') });
    if (!context.detail?.messages.some((message) => message.id === heard.id)) list.push({ type: 'realtime.message.received', message: heard });
  }
  // The chat, while nothing else is on its way.
  if (factsCurrent && settlement('idle') && !settled) {
    if (composerIdle) list.push({ type: 'message.change', value: context.draft === '' ? 'hello' : '' }, { type: 'message.send' });
    else list.push({ type: 'xstate.done.actor.sendMessage', output: stored }, { type: 'xstate.error.actor.sendMessage', error: failure });
  }
  // The settlement, while the chat is quiet.
  if (composerIdle && context.draft === '') {
    if (settlement('idle') && factsCurrent) list.push({ type: 'resolve.release' }, { type: 'resolve.refund' });
    if (settlement('confirming') && factsCurrent) {
      list.push({ type: 'resolution.change', value: context.reason === '' ? 'Paid in full' : '' }, { type: 'resolution.confirm' }, { type: 'dialog.dismiss' });
    }
    if (settlement('submitting')) {
      list.push({ type: 'xstate.done.actor.resolveDispute', output: 'Dispute settled.' }, { type: 'xstate.error.actor.resolveDispute', error: failure });
    }
  }
  return list;
}

const walked = bindModerationDesk(moderationDeps().deps);
const walks = [
  {
    name: 'the list',
    input: { channel: null } satisfies ModerationDeskInput,
    // The list alone is small: loading, failed, ready, empty and refreshing, with one dispute or none.
    model: walk(walked, { events: listEvents, input: { channel: null }, simple: true }),
    least: 5,
  },
  {
    name: 'one dispute',
    input: { channel: 'trade-1' } satisfies ModerationDeskInput,
    model: walk(walked, { events: detailEvents, input: { channel: 'trade-1' } }),
    least: 100,
  },
];

async function run(path: ModelPath, input: ModerationDeskInput, coverage?: Coverage) {
  const fakes = scriptedActors(srcs);
  const harness = moderationDeps();
  const clock = new SimulatedClock();
  const machine = bindModerationDesk(harness.deps).provide({ actors: fakes.actors as never });
  const actor = createActor(machine, { input, clock, inspect: coverage?.inspect }).start();

  // The oracle: what the moderator sees, counted apart from the chart.
  let settlements = 0;
  await replay(
    actor,
    path,
    fakes,
    (snapshot, { event }) => {
      if (event.type === 'xstate.done.actor.resolveDispute') {
        settlements += 1;
        // A settlement made here is followed by a read of the list, now or once the read on its way is in.
        expect(fakes.isRunning('refreshDisputes') || (snapshot.context as Ctx).listStale, 'list read again').toBe(true);
      }
      if (event.type.startsWith('xstate.done.actor.resolveDispute') || event.type.startsWith('xstate.error.actor.resolveDispute')) {
        // Settled or refused, the dispute's facts are read again.
        expect(fakes.isRunning('refreshDispute') || (snapshot.context as Ctx).detailStale, 'facts read again').toBe(true);
      }
      const s = snapshot as never;
      const context = snapshot.context as Ctx;
      const dialog = on(snapshot, { detail: { open: { settlement: 'confirming' } } }) || on(snapshot, { detail: { open: { settlement: 'submitting' } } });
      const pending = context.detail?.status === 'pending';
      const disputed = pending && context.detail?.dispute_raised === true;

      expect(selectListView(s), 'list').toBe(
        on(snapshot, { list: 'loading' }) ? 'loading' : on(snapshot, { list: 'failed' }) ? 'failed' : context.disputes.length ? 'ready' : 'empty',
      );
      expect(fakes.isRunning('loadDisputes'), 'first list read').toBe(on(snapshot, { list: 'loading' }));
      expect(fakes.isRunning('refreshDisputes'), 'list read again').toBe(on(snapshot, { list: 'refreshing' }));
      expect(selectDetailView(s), 'detail').toBe(
        on(snapshot, { detail: 'open' }) ? 'open' : on(snapshot, { detail: 'loading' }) ? 'loading' : on(snapshot, { detail: 'failed' }) ? 'failed' : 'none',
      );
      expect(fakes.isRunning('loadDispute'), 'dispute read').toBe(on(snapshot, { detail: 'loading' }));
      // The dispute's channel is listened to exactly while it is open (unless the server refused it).
      if (!on(snapshot, { detail: 'open' })) expect(fakes.isRunning('tradeChannel'), 'trade channel').toBe(false);
      expect(selectDialogOutcome(s), 'dialog').toBe(dialog ? context.outcome : null);
      expect(selectIsResolving(s), 'Please wait...').toBe(fakes.isRunning('resolveDispute'));
      expect(selectCanConfirm(s), 'Confirm').toBe(
        on(snapshot, { detail: { open: { settlement: 'confirming' } } }) && context.reason.trim() !== '' && disputed,
      );
      const buttons = selectSettlementButtons(s).map((button) => button.enabled);
      const idle = on(snapshot, { detail: { open: { settlement: 'idle' } } });
      expect(buttons, 'settle buttons').toEqual([idle && disputed, idle && disputed]);
      expect(selectCanSend(s), 'Send').toBe(on(snapshot, { detail: { open: { composer: 'idle' } } }) && pending && context.draft.trim() !== '');
      expect(selectIsSettled(s), 'settled').toBe(context.detail !== null && !pending);
      expect(harness.notices, 'toasts').toHaveLength(settlements);
    },
    { clock },
  );
  actor.stop();
}

describe.each(walks)('moderation desk, $name: every path through the chart', ({ input, model, least }) => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThanOrEqual(least);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(path, input);
  });
});

describe('moderation desk: the walks together', () => {
  it('reach every state and take every transition of the chart', async () => {
    const coverage = new Coverage(walked);
    for (const { model, input } of walks) for (const path of model.paths) await run(path, input, coverage);
    const paths = walks.reduce((sum, { model }) => sum + model.paths.length, 0);
    console.log(`${coverage.summary()} (${paths} paths over ${walks.map(({ model }) => model.states).join(' + ')} snapshots)`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  }, 300_000);
});

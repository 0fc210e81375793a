import { SimulatedClock, createActor, type AnyMachineSnapshot } from 'xstate';
import type { OperatorOverview } from '../../contracts/operator.ts';
import { bindOperatorOverview } from '../../src/machines/operatorOverview/operatorOverview.actors.ts';
import {
  selectIsRefreshing,
  selectLiveness,
  selectOverview,
  selectOverviewView,
} from '../../src/machines/operatorOverview/operatorOverview.selectors.ts';
import { Coverage, afterEvent, describeModel, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { GENERATED_AT, operatorDeps, operatorOverview } from '../support/operator.ts';

/**
 * The overview's chart walked as it is, every invoked actor scripted: the reads answered or failed, the channel
 * joined (again), a live overview and a queue change arriving, the connection going and coming back (the minute
 * passing reads again only while it is gone), the channel and the connection refused. The Date is frozen, so
 * the minute's tick reads the same time; it runs out with the minute of the read timer (both a minute), which
 * is how the walk reaches it.
 */
vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(GENERATED_AT) });

const srcs = ['loadOverview', 'operatorsChannel', 'watchConnection'] as const;
const failure = new Error('Internet server error');
const first = operatorOverview();
const second = operatorOverview({ traders: { total: 1285, active_24h: 213, active_7d: 689, suspended: 3 } });
const minute = afterEvent('offlineRefreshInterval', 'operatorOverview.overview.shown');
const on = (snapshot: AnyMachineSnapshot, value: object) => snapshot.matches(value as never);

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const shown = (snapshot.context as { overview: OperatorOverview | null }).overview;
  const next = shown === first ? second : first;
  const list: ModelEvent[] = [];
  if (on(snapshot, { overview: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadOverview', output: first },
      { type: 'xstate.error.actor.loadOverview', error: failure },
      { type: 'realtime.operators.subscribed' },
      { type: 'realtime.overview.received', overview: second },
    );
  }
  if (on(snapshot, { overview: 'failed' })) {
    list.push({ type: 'overview.retry' }, { type: 'realtime.operators.subscribed' }, { type: 'realtime.overview.received', overview: second });
  }
  if (on(snapshot, { overview: 'shown' })) {
    list.push({ type: 'realtime.overview.received', overview: next }, { type: 'realtime.operators.subscribed' }, { type: 'realtime.reviews.changed' }, minute);
  }
  if (on(snapshot, { overview: 'refreshing' })) {
    list.push(
      { type: 'xstate.done.actor.refreshOverview', output: next },
      { type: 'xstate.error.actor.refreshOverview', error: failure },
      { type: 'realtime.overview.received', overview: next },
      { type: 'realtime.operators.subscribed' },
    );
  }
  // The connection moves only while the numbers show or are read again: elsewhere it changes nothing new.
  if (on(snapshot, { overview: 'shown' }) || on(snapshot, { overview: 'loading' })) {
    if (on(snapshot, { connection: 'connecting' })) list.push({ type: 'realtime.connected' }, { type: 'realtime.offline' });
    if (on(snapshot, { connection: 'live' })) list.push({ type: 'realtime.offline' }, { type: 'realtime.connecting' });
    if (on(snapshot, { connection: 'offline' })) list.push({ type: 'realtime.connected' }, { type: 'realtime.connecting' });
  }
  return list;
}

/** The channel and the socket refused, each once, while the numbers show: then only the minute passes. */
function refusals(snapshot: AnyMachineSnapshot): ModelEvent[] {
  if (on(snapshot, { overview: 'loading' })) return [{ type: 'xstate.done.actor.loadOverview', output: first }];
  if (on(snapshot, { overview: 'refreshing' })) return [{ type: 'xstate.done.actor.refreshOverview', output: first }];
  if (!on(snapshot, { overview: 'shown' })) return [];
  if (on(snapshot, { connection: 'connecting' })) return [{ type: 'xstate.error.actor.connection', error: new Error('no socket') }];
  return [{ type: 'xstate.error.actor.operatorsChannel', error: new Error('refused') }, minute];
}

const walked = bindOperatorOverview(operatorDeps().deps);
const models = [walk(walked, { events }), walk(walked, { events: refusals, simple: true })];
const model = { paths: models.flatMap((one) => one.paths), states: models[0]!.states };

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(srcs);
  const clock = new SimulatedClock();
  const machine = walked.provide({ actors: fakes.actors as never });
  const actor = createActor(machine, { clock, inspect: coverage?.inspect }).start();

  // The oracle: what the operator sees, from the path's events alone.
  let seen: OperatorOverview | null = null;
  let firstReadFailed = false;
  let connection: 'connecting' | 'live' | 'offline' = 'connecting';
  await replay(
    actor,
    path,
    fakes,
    (snapshot, { event }) => {
      if (event.type === 'xstate.done.actor.loadOverview' || event.type === 'xstate.done.actor.refreshOverview') seen = event.output as OperatorOverview;
      if (event.type === 'realtime.overview.received') seen = event.overview as OperatorOverview;
      if (event.type === 'xstate.error.actor.loadOverview') firstReadFailed = true;
      if (event.type === 'overview.retry' || (event.type === 'realtime.operators.subscribed' && seen === null)) firstReadFailed = false;
      if (event.type === 'realtime.connected') connection = 'live';
      if (event.type === 'realtime.offline' || event.type === 'xstate.error.actor.connection') connection = 'offline';
      if (event.type === 'realtime.connecting') connection = 'connecting';
      if (event.type === minute.type) {
        // A minute passing reads the overview again only while realtime cannot reach the page.
        expect(fakes.isRunning('refreshOverview'), 'read on the timer').toBe(connection === 'offline');
      }
      if (event.type === 'realtime.operators.subscribed' && seen !== null) expect(fakes.isRunning('refreshOverview'), 'read after a join').toBe(true);
      if (event.type === 'realtime.reviews.changed') expect(fakes.isRunning('refreshOverview'), 'read after the queue changed').toBe(true);

      const s = snapshot as never;
      expect(selectOverview(s), 'numbers').toBe(seen);
      expect(selectOverviewView(s), 'view').toBe(seen ? 'shown' : firstReadFailed ? 'failed' : 'loading');
      expect(fakes.isRunning('loadOverview'), 'first read').toBe(seen === null && !firstReadFailed);
      expect(selectIsRefreshing(s), 'read again').toBe(fakes.isRunning('refreshOverview'));
      expect(selectLiveness(s), 'live badge').toBe(connection);
    },
    { clock },
  );
  actor.stop();
}

describeModel('operator overview', walked, model, 15, run);

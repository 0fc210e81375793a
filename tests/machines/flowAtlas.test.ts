import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { flowAtlasMachine, LIVE_EVENTS_KEPT, type AtlasAccess, type FlowAtlasEvent } from '../../src/machines/flowAtlas/flowAtlas.machine.ts';
import { bindFlowAtlas } from '../../src/machines/flowAtlas/flowAtlas.actors.ts';
import { selectActiveStates, selectChartId, selectIsRefused, selectLayout, selectLiveActors } from '../../src/machines/flowAtlas/flowAtlas.selectors.ts';
import type { ChartLayout } from '../../src/ui/flows/layout.ts';
import type { WebAppConfig } from '../../contracts/index.ts';

const charts = [
  { id: 'login', description: 'Sign in' },
  { id: 'tradeDialog', description: 'The Trade Preview dialog' },
];
const layoutOf = (id: string): ChartLayout => ({ id, description: '', width: 10, height: 10, nodes: [], edges: [] });

function start({ access = { open: true, live: true }, chart = null as string | null, layout = async (id: string) => layoutOf(id) } = {}) {
  let feed: ((event: FlowAtlasEvent) => void) | null = null;
  let unsubscribed = 0;
  const layoutCalls: string[] = [];
  const actor = createActor(
    flowAtlasMachine.provide({
      actors: {
        checkAccess: fromPromise<AtlasAccess>(async () => access),
        layoutChart: fromPromise<ChartLayout, { chart: string }>(async ({ input }) => {
          layoutCalls.push(input.chart);
          return layout(input.chart);
        }),
        liveFeed: fromCallback<FlowAtlasEvent>(({ sendBack }) => {
          feed = sendBack;
          return () => void unsubscribed++;
        }),
      },
    }),
    { input: { charts, chart } },
  ).start();
  return { actor, layoutCalls, send: (event: FlowAtlasEvent) => feed!(event), unsubscribed: () => unsubscribed, hasFeed: () => feed !== null };
}

describe('the flow atlas chart', () => {
  it('opens on the first chart when none is named, and lays out the chart chosen', async () => {
    const { actor, layoutCalls } = start();
    await waitFor(actor, (snapshot) => selectLayout(snapshot) !== null);
    expect(selectChartId(actor.getSnapshot())).toBe('login');
    expect(selectLayout(actor.getSnapshot())?.id).toBe('login');
    actor.send({ type: 'chart.select', chart: 'tradeDialog' });
    await waitFor(actor, (snapshot) => selectLayout(snapshot)?.id === 'tradeDialog');
    expect(layoutCalls).toEqual(['login', 'tradeDialog']);
  });

  it('says there is no chart when the atlas has none to open on', async () => {
    const empty = createActor(
      flowAtlasMachine.provide({ actors: { checkAccess: fromPromise<AtlasAccess>(async () => ({ open: true, live: false })) } }),
      { input: { charts: [], chart: null } },
    ).start();
    await waitFor(empty, (snapshot) => snapshot.matches({ open: { chart: 'unknown' } }));
    expect(selectChartId(empty.getSnapshot())).toBeNull();
  });

  it('opens on the chart the address names, and says so when there is none by that name', async () => {
    const named = start({ chart: 'login' });
    await waitFor(named.actor, (snapshot) => snapshot.matches({ open: { chart: 'showing' } }));
    const unknown = start({ chart: 'nothing' });
    await waitFor(unknown.actor, (snapshot) => snapshot.matches({ open: { chart: 'unknown' } }));
    expect(unknown.layoutCalls).toEqual([]);
  });

  it('is not found when the configuration does not let this visitor in, or cannot be read', async () => {
    const refused = start({ access: { open: false, live: false } });
    await waitFor(refused.actor, selectIsRefused);
    const broken = createActor(
      flowAtlasMachine.provide({ actors: { checkAccess: fromPromise<AtlasAccess>(async () => Promise.reject(new Error('offline'))) } }),
      { input: { charts, chart: null } },
    ).start();
    await waitFor(broken, selectIsRefused);
  });

  it('offers a retry when a layout fails', async () => {
    let fail = true;
    const { actor } = start({ chart: 'login', layout: async (id) => (fail ? Promise.reject(new Error('elk')) : layoutOf(id)) });
    await waitFor(actor, (snapshot) => snapshot.matches({ open: { chart: 'failed' } }));
    fail = false;
    actor.send({ type: 'layout.retry' });
    await waitFor(actor, (snapshot) => snapshot.matches({ open: { chart: 'showing' } }));
  });

  it('follows the running actors of the pages beside it and keeps the last events', async () => {
    const live = start({ chart: 'tradeDialog' });
    await waitFor(live.actor, (snapshot) => snapshot.matches({ open: { live: 'listening' } }));
    live.send({ type: 'live.actor', actor: { key: 'p:1', chart: 'tradeDialog', active: ['tradeDialog', 'tradeDialog.closed'], page: '/offers' } });
    live.send({ type: 'live.actor', actor: { key: 'p:2', chart: 'login', active: ['login', 'login.editing'], page: '/login' } });
    expect([...selectActiveStates(live.actor.getSnapshot())]).toEqual(['tradeDialog', 'tradeDialog.closed']);
    live.send({ type: 'live.actor', actor: { key: 'p:1', chart: 'tradeDialog', active: ['tradeDialog', 'tradeDialog.open', 'tradeDialog.open.editing'], page: '/offers' } });
    expect(selectActiveStates(live.actor.getSnapshot()).has('tradeDialog.open.editing')).toBe(true);
    live.send({ type: 'live.gone', key: 'p:1' });
    expect(selectLiveActors(live.actor.getSnapshot()).map((actor) => actor.key)).toEqual(['p:2']);
    for (let index = 0; index < LIVE_EVENTS_KEPT + 5; index++) {
      live.send({ type: 'live.event', event: { key: 'p:2', chart: 'login', type: `event.${index}`, at: new Date(0).toISOString() } });
    }
    const events = live.actor.getSnapshot().context.liveEvents;
    expect(events).toHaveLength(LIVE_EVENTS_KEPT);
    expect(events[0]?.type).toBe(`event.${LIVE_EVENTS_KEPT + 4}`);
    live.actor.stop();
    expect(live.unsubscribed()).toBe(1);
  });

  it('does not listen to live pages when live mode is off (production)', async () => {
    const quiet = start({ access: { open: true, live: false } });
    await waitFor(quiet.actor, (snapshot) => snapshot.matches({ open: { live: 'off' } }));
    expect(quiet.hasFeed()).toBe(false);
  });
});

describe('who may open the atlas (flowAtlas.actors.ts)', () => {
  const config = (open_to: 'everyone' | 'moderators', live: boolean) =>
    ({ flow_atlas: { open_to, live } }) as unknown as WebAppConfig;
  const access = async (appConfig: Promise<WebAppConfig | null>, role: string | null) => {
    const actor = createActor(bindFlowAtlas({ appConfig }, () => role), { input: { charts, chart: null } }).start();
    await waitFor(actor, (snapshot) => !snapshot.matches('checkingAccess'));
    return { refused: selectIsRefused(actor.getSnapshot()), live: actor.getSnapshot().context.live };
  };

  it('lets everyone in when the server says so, and only moderators otherwise', async () => {
    expect(await access(Promise.resolve(config('everyone', true)), null)).toEqual({ refused: false, live: true });
    expect(await access(Promise.resolve(config('moderators', false)), 'trader')).toMatchObject({ refused: true });
    expect(await access(Promise.resolve(config('moderators', false)), null)).toMatchObject({ refused: true });
    expect(await access(Promise.resolve(config('moderators', false)), 'moderator')).toEqual({ refused: false, live: false });
    expect(await access(Promise.resolve(null), 'moderator')).toMatchObject({ refused: true });
  });
});

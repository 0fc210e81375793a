import type { SnapshotFrom } from 'xstate';
import type { flowAtlasMachine } from './flowAtlas.machine.ts';

type FlowAtlasSnapshot = SnapshotFrom<typeof flowAtlasMachine>;

export const selectIsRefused = (snapshot: FlowAtlasSnapshot) => snapshot.hasTag('notFound');
export const selectIsCheckingAccess = (snapshot: FlowAtlasSnapshot) => snapshot.matches('checkingAccess');
export const selectCharts = (snapshot: FlowAtlasSnapshot) => snapshot.context.charts;
export const selectChartId = (snapshot: FlowAtlasSnapshot) => snapshot.context.chartId;
export const selectLayout = (snapshot: FlowAtlasSnapshot) => (snapshot.matches({ open: { chart: 'showing' } }) ? snapshot.context.layout : null);
export const selectIsLayingOut = (snapshot: FlowAtlasSnapshot) => snapshot.hasTag('busy');
export const selectLayoutFailed = (snapshot: FlowAtlasSnapshot) => snapshot.matches({ open: { chart: 'failed' } });
export const selectIsUnknownChart = (snapshot: FlowAtlasSnapshot) => snapshot.matches({ open: { chart: 'unknown' } });
export const selectView = (snapshot: FlowAtlasSnapshot) => snapshot.context.view;
export const selectSelected = (snapshot: FlowAtlasSnapshot) => snapshot.context.selected;
export const selectIsLive = (snapshot: FlowAtlasSnapshot) => snapshot.matches({ open: { live: 'listening' } });
export const selectLiveActors = (snapshot: FlowAtlasSnapshot) =>
  Object.values(snapshot.context.liveActors).sort((a, b) => a.chart.localeCompare(b.chart) || a.key.localeCompare(b.key));
export const selectLiveEvents = (snapshot: FlowAtlasSnapshot) => snapshot.context.liveEvents;

/** Where the running actors of the chosen chart are: the states the diagram highlights. */
export const selectActiveStates = (snapshot: FlowAtlasSnapshot): ReadonlySet<string> =>
  new Set(Object.values(snapshot.context.liveActors).filter((actor) => actor.chart === snapshot.context.chartId).flatMap((actor) => actor.active));

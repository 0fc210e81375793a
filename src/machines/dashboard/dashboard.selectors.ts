import type { SnapshotFrom } from 'xstate';
import type { dashboardMachine } from './dashboard.machine.ts';

type DashboardSnapshot = SnapshotFrom<typeof dashboardMachine>;

export const selectIsLoading = (snapshot: DashboardSnapshot) => snapshot.hasTag('busy');
export const selectOverview = (snapshot: DashboardSnapshot) => snapshot.context.overview;

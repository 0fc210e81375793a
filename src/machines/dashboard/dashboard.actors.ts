import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { dashboardMachine } from './dashboard.machine.ts';

export const bindDashboard = (deps: FlowDeps) =>
  dashboardMachine.provide({ actors: { loadOverview: fromPromise(() => deps.accounts.overview()) } });

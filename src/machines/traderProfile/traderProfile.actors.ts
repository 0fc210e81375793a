import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { traderProfileMachine } from './traderProfile.machine.ts';

export const bindTraderProfile = (deps: FlowDeps) =>
  traderProfileMachine.provide({
    actors: { loadProfile: fromPromise(({ input }) => deps.traders.profile(input)) },
  });

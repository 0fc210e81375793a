import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { antiPhishingMachine } from './antiPhishing.machine.ts';
import { antiPhishingRules } from './antiPhishing.rules.ts';

/** The anti-phishing chart with the contract's rule for a code: what every use of it, tests included, starts from. */
export const antiPhishingLogic = antiPhishingMachine.provide({ guards: antiPhishingRules });

export const bindAntiPhishing = (deps: FlowDeps) =>
  antiPhishingLogic.provide({
    actors: {
      loadStatus: fromPromise(() => deps.accountProtections.antiPhishingStatus()),
      setCode: fromPromise(({ input }) => deps.accountProtections.setAntiPhishingCode(input)),
      clearCode: fromPromise(({ input }) => deps.accountProtections.clearAntiPhishingCode(input)),
    },
    actions: { notify: (_, params) => deps.notify(params) },
  });

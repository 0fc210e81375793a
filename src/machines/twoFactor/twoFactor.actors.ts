import { fromPromise } from 'xstate';
import { codeEntryMachine } from '../codeEntry/codeEntry.machine.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { twoFactorMachine } from './twoFactor.machine.ts';

/** The two-factor chart with its rules and its code entry: what every use of it, tests included, starts from. */
export const twoFactorLogic = twoFactorMachine.provide({ guards: formRules, actors: { codeEntry: codeEntryMachine } });

export const bindTwoFactor = (deps: FlowDeps) =>
  twoFactorLogic.provide({
    actors: {
      loadStatus: fromPromise(() => deps.accounts.twoFactorStatus()),
      startSetup: fromPromise(() => deps.accounts.twoFactorSetup()),
      enable: fromPromise(({ input }) => deps.accounts.twoFactorEnable(input)),
      disable: fromPromise(({ input }) => deps.accounts.twoFactorDisable(input)),
      renewRecoveryCodes: fromPromise(({ input }) => deps.accounts.twoFactorRenewRecoveryCodes(input)),
    },
    actions: { notify: (_, params) => deps.notify(params) },
  });

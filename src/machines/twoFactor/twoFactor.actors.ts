import { fromPromise } from 'xstate';
import type { FlowDeps } from '../shared/deps.ts';
import { twoFactorMachine } from './twoFactor.machine.ts';

export const bindTwoFactor = (deps: FlowDeps) =>
  twoFactorMachine.provide({
    actors: {
      loadStatus: fromPromise(() => deps.accounts.twoFactorStatus()),
      startSetup: fromPromise(() => deps.accounts.twoFactorSetup()),
      enable: fromPromise(({ input }) => deps.accounts.twoFactorEnable(input)),
      disable: fromPromise(({ input }) => deps.accounts.twoFactorDisable(input)),
      renewRecoveryCodes: fromPromise(({ input }) => deps.accounts.twoFactorRenewRecoveryCodes(input)),
    },
    actions: { notify: (_, params) => deps.notify(params) },
  });

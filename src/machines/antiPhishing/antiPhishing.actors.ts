import { createAccountProtectionService } from '../../services/accountProtections.ts';
import { confirmedBy } from '../passwordConfirm/passwordConfirm.actors.ts';
import { callsOf, toasts } from '../shared/binding.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { antiPhishingMachine } from './antiPhishing.machine.ts';
import { antiPhishingRules } from './antiPhishing.rules.ts';

/** The anti-phishing chart with the contract's rule for a code: what every use of it, tests included, starts from. */
export const antiPhishingLogic = antiPhishingMachine.provide({ guards: antiPhishingRules });

export const bindAntiPhishing = (deps: FlowDeps) => {
  const protections = createAccountProtectionService(deps.api);
  return antiPhishingLogic.provide({
    actors: {
      ...callsOf(protections, { loadStatus: 'antiPhishingStatus', setCode: 'setAntiPhishingCode' }),
      confirmClear: confirmedBy(protections.clearAntiPhishingCode),
    },
    actions: toasts(deps),
  });
};

import { fromPromise } from 'xstate';
import { createOperatorService, type OperatorService } from '../../services/operator.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { traderDossierMachine } from './traderDossier.machine.ts';
import { dossierRules } from './traderDossier.rules.ts';

/** `operator`: the console's calls, made from the shared client unless a test hands its own. */
export const bindTraderDossier = (deps: FlowDeps, operator: OperatorService = createOperatorService(deps.api)) =>
  traderDossierMachine.provide({
    actors: {
      loadTrader: fromPromise(({ input }) => operator.trader(input)),
      addNote: fromPromise(({ input }) => operator.addNote(input)),
      takeAction: fromPromise(({ input }) => operator.act(input)),
    },
    guards: dossierRules,
    actions: {
      notifyNoted: (_, params) => deps.notify({ title: params.info, type: 'success' }),
    },
  });

import { fromPromise } from 'xstate';
import { createOperatorService, type OperatorService } from '../../services/operator.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { operatorsChannel } from '../shared/operatorsChannel.ts';
import { dossierRules } from '../traderDossier/traderDossier.rules.ts';
import { reviewQueueMachine } from './reviewQueue.machine.ts';

/** `operator`: the console's calls, made from the shared client unless a test hands its own. */
export const bindReviewQueue = (deps: FlowDeps, operator: OperatorService = createOperatorService(deps.api)) =>
  reviewQueueMachine.provide({
    actors: {
      loadQueue: fromPromise(() => operator.reviewQueue()),
      decide: fromPromise(({ input }) => operator.decide(input)),
      operatorsChannel: operatorsChannel(deps.realtime, {
        subscribed: { type: 'realtime.operators.subscribed' },
        reviews: { type: 'realtime.reviews.changed' },
      }),
    },
    // A rejection's reason is an operator's written reason, as a suspension's is.
    guards: { isReasonWritten: dossierRules.isReasonWritten },
    actions: {
      notifyDecided: (_, params) => deps.notify({ title: params.info, type: 'success' }),
    },
  });

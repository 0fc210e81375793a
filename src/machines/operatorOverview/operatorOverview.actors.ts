import { assign, fromPromise } from 'xstate';
import { createOperatorService, type OperatorService } from '../../services/operator.ts';
import { watchingConnection } from '../shared/channels.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { operatorsChannel } from '../shared/operatorsChannel.ts';
import { operatorOverviewMachine } from './operatorOverview.machine.ts';

/** The overview's chart with the browser's clock: what every use of it, tests included, starts from. */
export const operatorOverviewLogic = operatorOverviewMachine.provide({ actions: { tick: assign({ now: () => Date.now() }) } });

/** `operator`: the console's calls, made from the shared client unless a test hands its own. */
export const bindOperatorOverview = (deps: FlowDeps, operator: OperatorService = createOperatorService(deps.api)) =>
  operatorOverviewLogic.provide({
    actors: {
      loadOverview: fromPromise(() => operator.overview()),
      operatorsChannel: operatorsChannel(deps.realtime, {
        subscribed: { type: 'realtime.operators.subscribed' },
        reviews: { type: 'realtime.reviews.changed' },
        overview: (overview) => ({ type: 'realtime.overview.received', overview }),
      }),
      watchConnection: watchingConnection(deps.realtime),
    },
  });

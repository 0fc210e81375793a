import { fromPromise } from 'xstate';
import { createOperatorService, type OperatorService } from '../../services/operator.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { traderSearchMachine } from './traderSearch.machine.ts';

/** `operator`: the console's calls, made from the shared client unless a test hands its own. */
export const bindTraderSearch = (deps: FlowDeps, operator: OperatorService = createOperatorService(deps.api)) =>
  traderSearchMachine.provide({
    actors: { searchTraders: fromPromise(({ input }) => operator.searchTraders(input)) },
  });

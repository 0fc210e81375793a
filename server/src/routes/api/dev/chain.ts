import type { FastifyInstance } from 'fastify';
import { devChainRequest } from '../../../../../contracts/wallet.ts';
import { parseBody } from '../../../http/parse-body.ts';
import { Unavailable } from '../../../refusals.ts';

/**
 * POST /api/dev/chain/ — drives CHAIN_SOURCE=simulated (contract.md "Wallets"), in the development helpers'
 * scope like the outbox. PLACEHOLDER: being built (issue 11).
 */
export default async function devChainRoute(app: FastifyInstance) {
  app.post('/dev/chain/', async (request) => {
    parseBody(devChainRequest, request.body);
    throw new Unavailable('The simulated chain is not built yet.');
  });
}

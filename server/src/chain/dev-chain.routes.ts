import type { FastifyInstance } from 'fastify';
import { devChainDeposit, devChainMine, devChainRequest } from '../../../contracts/wallet.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { refuse } from '../sentences.ts';

/**
 * POST /api/dev/chain/ — drives CHAIN_SOURCE=simulated (docs/api.md "Development helpers"), in the development helpers'
 * scope like the outbox (registered only with the simulated chain, answered only on this machine).
 * `deposit` pays an address from outside; `mine` lets blocks pass. Each runs a watcher round before it
 * answers, so what the chain did is already in the traders' histories and balances when the answer arrives.
 */
export default async function devChainRoute(app: FastifyInstance) {
  app.post('/dev/chain/', async (request) => {
    const body = parseBody(devChainRequest, request.body);
    const chain = app.chain.simulated;
    if (!chain) throw refuse.notSimulated();
    switch (body.type) {
      case 'deposit': {
        const { txid } = await chain.deposit(body);
        await app.chain.sync();
        return ok(devChainDeposit, { txid });
      }
      case 'mine':
        // A round first, so a withdrawal confirmed a moment ago is broadcast and is in the blocks mined.
        await app.chain.sync();
        await chain.mine(body.blocks);
        await app.chain.sync();
        return ok(devChainMine, { mined: body.blocks });
    }
  });
}

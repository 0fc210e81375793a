import { devChainDeposit, devChainMine, devChainRequest } from '../../../contracts/wallet.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { refuse } from '../sentences.ts';

/**
 * POST /api/dev/chain/: drives CHAIN_SOURCE=simulated (docs/api.md "Development helpers"), a development helper
 * like the outbox (served only with the simulated chain, answered only on this machine). `deposit` pays an
 * address from outside; `mine` lets blocks pass. Each runs a watcher round before it answers, so what the chain
 * did is already in the traders' histories and balances when the answer arrives.
 */
export default defineCall({
  method: 'post',
  path: '/api/dev/chain/',
  tag: 'Development helpers',
  summary: 'Simulated chain',
  description:
    'Drives `CHAIN_SOURCE=simulated`, under the same conditions as the outbox. `deposit` → `{txid}`: a transfer to an address, pending in its owner\'s history at once. `mine` (1–100 blocks) → `{mined}`: deposits with 1 confirmation are credited and broadcast withdrawals confirmed.',
  access: 'public',
  developmentOnly: true,
  servedWhen: (app) => app.config.chainSource === 'simulated',
  request: devChainRequest,
  answer: byType({ deposit: devChainDeposit, mine: devChainMine }),
  refusals: [404],
  handlers: ({ app }) => {
    const chain = app.chain.simulated;
    if (!chain) throw refuse.notSimulated();
    return {
      deposit: async (body) => {
        // The simulated chain would take it, but the watcher reads this network from its node: it would vanish.
        if (app.config.evmNetworks.some((evm) => evm.network === body.network)) throw refuse.onRealChain(body.network);
        const { txid } = await chain.deposit(body);
        await app.chain.sync();
        return { txid };
      },
      mine: async (body) => {
        // A round first, so a withdrawal confirmed a moment ago is broadcast and is in the blocks mined.
        await app.chain.sync();
        await chain.mine(body.blocks);
        await app.chain.sync();
        return { mined: body.blocks };
      },
    };
  },
});

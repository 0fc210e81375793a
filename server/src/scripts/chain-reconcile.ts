/**
 * `npm run chain:reconcile [-- --hot 0xADDRESS | --hot <network>=0xADDRESS …] [--json]`: per coin carried on a
 * network of EVM_NETWORKS, what the ledger of the server's database (DATABASE_URL, or the PGlite files under
 * DATA_DIR) owes traders against what the chains hold (chain/reconcile.ts), with the open chain incidents.
 * Exits 1 when a coin is short, a node answers another chain id than configured or cannot be read; 0 otherwise.
 * It only reads. docs/chains.md "Reconciliation" explains the output.
 *
 * The hot wallet's address: `--hot`, or the one the server's hot wallet recorded when it started
 * (evm_hot_wallets), or the signer's EVM_<NETWORK>_HOT_WALLET_ADDRESS; without any the hot wallet is not
 * counted (the report says so). PGlite keeps its files for one process at a time: stop the server
 * before reconciling a PGlite DATA_DIR.
 */
import { parseArgs } from 'node:util';
import { isAddress } from 'viem';
import type { NetworkKey } from '../../../contracts/wallet.ts';
import { reconcileChains, formatReconcileReport } from '../chain/reconcile.ts';
import { loadConfig } from '../config.ts';
import { runOnDatabase } from './run-on-database.ts';

const USAGE = 'usage: npm run chain:reconcile -- [--hot 0xADDRESS | --hot <network>=0xADDRESS ...] [--json]';

function hotAddresses(values: readonly string[], networks: readonly NetworkKey[]): Partial<Record<NetworkKey, string>> {
  const answer: Partial<Record<NetworkKey, string>> = {};
  for (const value of values) {
    const [first, second] = value.split('=');
    const network = second === undefined ? (networks.length === 1 ? networks[0] : undefined) : (first?.trim().toLowerCase() as NetworkKey);
    const address = (second ?? first ?? '').trim();
    if (network === undefined) throw new Error(`--hot ${value}: several networks are configured (${networks.join(', ')}): write --hot <network>=0xADDRESS`);
    if (!networks.includes(network)) throw new Error(`--hot ${value}: ${network} is not in EVM_NETWORKS (${networks.join(', ') || 'none'})`);
    if (!isAddress(address, { strict: false })) throw new Error(`--hot ${value}: ${address} is not a 0x address`);
    answer[network] = address;
  }
  return answer;
}

const { values } = (() => {
  try {
    return parseArgs({ options: { hot: { type: 'string', multiple: true }, json: { type: 'boolean' } }, allowPositionals: false });
  } catch (error) {
    console.error(`chain:reconcile: ${(error as Error).message}\n${USAGE}`);
    process.exit(1);
  }
})();

runOnDatabase('chain:reconcile', 'chain_incidents', async (db) => {
  const config = loadConfig(process.env);
  const report = await reconcileChains({
    db,
    networks: config.evmNetworks,
    hotWalletAddresses: hotAddresses(values.hot ?? [], config.evmNetworks.map((network) => network.network)),
  });
  console.log(
    values.json ? JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2) : formatReconcileReport(report),
  );
  return report.ok ? 0 : 1;
});

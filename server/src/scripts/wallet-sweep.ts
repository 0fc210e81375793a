/**
 * `npm run wallet:sweep -- --network ethereum --to 0xCOLD [--min USDT=50 --min ETH=0.05] [--gas-key-file PATH]
 * [--dry-run] [--hot 0xHOT] [--unlisted-target]`: moves what the network's deposit addresses hold to a cold
 * address or the hot wallet (chain/evm/sweep.ts; docs/chains.md "Sweeping").
 *
 * Run by the operator where the mnemonic is (WALLET_MNEMONIC_FILE, or --mnemonic-file), never on the server. It
 * reads the deposit addresses and their indexes from the server's database (DATABASE_URL, or the PGlite files
 * under DATA_DIR with the server stopped) and the network from the same EVM_NETWORKS / EVM_<NETWORK>_* variables
 * as the server. Token sweeps need the gas station's key (--gas-key-file: 64 hex digits, readable by its owner
 * only), whose address the server must know as EVM_<NETWORK>_GAS_STATION_ADDRESS. Exits 1 when anything failed.
 *
 * The configuration is read with parseEvmNetworks, not the server's loadConfig: this machine needs the network's
 * variables, not the server's secrets (APP_SECRET and the rest).
 */
import { parseArgs } from 'node:util';
import { KeyFileError, readPrivateKeyFile, readSecretFile } from '../chain/evm/key-files.ts';
import { addEvmNetworks, chainNetworkOf } from '../wallets/networks.ts';
import { parseAccountKey, xpubVariable } from '../wallets/keys.ts';
import { parseEvmNetworks } from '../chain/evm/config.ts';
import { formatSweepReport, isAccountKeyOf, sweepDepositAddresses } from '../chain/evm/sweep.ts';
import { reconcileRepository } from '../chain/reconcile.repository.ts';
import { openDatabase } from '../infra/db/open.ts';

const USAGE =
  'usage: npm run wallet:sweep -- --network ethereum --to 0xADDRESS [--min TICKER=AMOUNT ...] [--gas-key-file PATH] [--dry-run] [--hot 0xADDRESS] [--unlisted-target] [--mnemonic-file PATH]';

class Refused extends Error {}

/** A secret the operator keeps in a file, readable by its owner only (chain/evm/key-files.ts): a refusal otherwise. */
const ownersOnly = <T>(read: Promise<T>): Promise<T> =>
  read.catch((error: unknown) => {
    throw error instanceof KeyFileError ? new Refused(error.message) : error;
  });

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      network: { type: 'string' },
      to: { type: 'string' },
      min: { type: 'string', multiple: true },
      'gas-key-file': { type: 'string' },
      'dry-run': { type: 'boolean' },
      hot: { type: 'string' },
      'unlisted-target': { type: 'boolean' },
      'mnemonic-file': { type: 'string' },
    },
    allowPositionals: false,
  });
  const networkName = values.network?.trim().toLowerCase();
  if (!networkName || !values.to) throw new Refused(USAGE);
  const evmNetworks = parseEvmNetworks(process.env);
  addEvmNetworks(evmNetworks.map((network) => network.network));
  const chain = chainNetworkOf(networkName);
  if (!chain) throw new Refused(`--network ${networkName}: not a network of this server`);
  const config = evmNetworks.find((candidate) => candidate.network === networkName);
  if (!config) throw new Refused(`--network ${networkName}: not in EVM_NETWORKS (the sweep reads the network's node from EVM_${networkName.toUpperCase()}_*)`);

  const minimum: Record<string, string> = {};
  for (const entry of values.min ?? []) {
    const [ticker, amount, ...rest] = entry.split('=');
    if (!ticker || amount === undefined || rest.length > 0) throw new Refused(`--min ${entry}: write TICKER=AMOUNT (USDT=50)`);
    minimum[ticker.trim().toUpperCase()] = amount.trim();
  }

  const mnemonicFile = values['mnemonic-file'] ?? process.env.WALLET_MNEMONIC_FILE;
  if (!mnemonicFile) throw new Refused('WALLET_MNEMONIC_FILE (or --mnemonic-file): the file holding the BIP-39 mnemonic of the deposit addresses');
  const mnemonic = await ownersOnly(readSecretFile(mnemonicFile, 'the mnemonic file', true));
  // Every EVM network's addresses come from Ethereum's account key (wallets/networks.ts ChainNetwork.account).
  const xpub = process.env[xpubVariable(chain.account)];
  if (xpub !== undefined && xpub.trim() !== '' && !isAccountKeyOf(mnemonic, config.network, parseAccountKey(chain.account, xpub))) {
    throw new Refused(`the mnemonic in ${mnemonicFile} is not the one of ${xpubVariable(chain.account)}: nothing was sent`);
  }

  let gasStation;
  if (values['gas-key-file'] !== undefined) {
    gasStation = await ownersOnly(readPrivateKeyFile(values['gas-key-file'], 'the gas key file', true));
  }

  // The database only lists the addresses: it is closed before anything is sent (a PGlite folder is one process's).
  const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.DATA_DIR || './.data' });
  let depositAddresses;
  try {
    const exists = await db.maybe<{ found: string | null }>(`SELECT to_regclass('deposit_addresses')::text AS found`);
    if (!exists?.found) throw new Refused('no deposit_addresses in the database: start the server once to migrate it');
    depositAddresses = await reconcileRepository(db).depositAddressesOn(config.network);
  } finally {
    await db.close();
  }

  const report = await sweepDepositAddresses({
    config,
    depositAddresses,
    mnemonic,
    to: values.to,
    hotWalletAddress: values.hot,
    allowUnlistedTarget: values['unlisted-target'] ?? false,
    gasStation,
    minimum,
    dryRun: values['dry-run'] ?? false,
    log: (line) => console.log(line),
  });
  console.log(formatSweepReport(report));
  return report.failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`wallet:sweep: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

import { isBuiltInNetworkKey, NETWORK_KEYS, type NetworkKey, type WalletAddressEntry } from '../../../contracts/wallet.ts';
import type { Db } from '../infra/db/db.ts';
import { fixed } from '../ledger/money.ts';
import { depositAddressesRepository, type AddressRow } from './deposit-addresses.repository.ts';
import type { WalletKeys } from './keys.ts';
import { chainNetworkOf } from './networks.ts';

/** Where a failed `watch` is reported: the app's logger (pino's `error(obj, msg)`); `console` fits too. */
export interface WatchLog {
  error(obj: object, msg?: string): void;
}

export interface DepositAddressesDeps {
  db: Db;
  keys: WalletKeys;
  now: () => Date;
  /** Tells the chain adapter to watch a newly handed-out address (ChainAdapter.watch), after its commit. */
  watch: (network: NetworkKey, address: string) => Promise<void>;
  /** How many confirmations credit a deposit on the network (ChainAdapter.confirmationsToCredit), shown beside the address. */
  confirmationsToCredit: (network: NetworkKey) => number;
  /** Where a failed `watch` is logged (it never fails the call: the address is the trader's already). Default: console. */
  log?: WatchLog;
}

/** The traders' own deposit addresses (docs/rules.md "Wallets"). */
export function depositAddresses(deps: DepositAddressesDeps) {
  const log = deps.log ?? console;

  /**
   * Gives the user their address on each of `networks`, in one transaction. Per network: its advisory lock,
   * then the next child index after the highest handed out, so concurrent users get consecutive indexes
   * without gaps; the primary key (user, network) and the UNIQUE (network, index) and (network, address)
   * stand behind the lock. A network the user got meanwhile (their own concurrent call) is skipped.
   * Locks are taken in lock order (missingNetworks), so two calls never wait on each other in a cycle.
   *
   * A network derived from another's account (an EVM network beside `ethereum`, ChainNetwork.account) takes
   * the index of the user's address there, which `networks` puts before it: the trader has one address on
   * every EVM chain, so coins sent to it on the wrong EVM chain still reach its owner, never another trader.
   */
  async function allocate(userId: string, networks: readonly NetworkKey[]) {
    return deps.db.transaction(async (tx) => {
      const repository = depositAddressesRepository(tx);
      const allocated: { network: NetworkKey; address: string }[] = [];
      for (const network of networks) {
        await repository.lockNetwork(network);
        if (await repository.addressOf(userId, network)) continue;
        const account = chainNetworkOf(network)?.account ?? network;
        const shared = account === network ? undefined : await repository.addressOf(userId, account);
        if (account !== network && !shared) throw new Error(`No ${account} address to share with ${network}`);
        const index = shared ? shared.derivation_index : await repository.nextIndex(network);
        const address = deps.keys.addressAt(network, index);
        await repository.insert({ userId, network, index, address, now: deps.now() });
        allocated.push({ network, address });
      }
      return allocated;
    });
  }

  /** After the commit, so an adapter never watches an address that was rolled back. */
  async function watchAll(addresses: readonly { network: NetworkKey; address: string }[]) {
    await Promise.all(
      addresses.map(({ network, address }) =>
        deps.watch(network, address).catch((error: unknown) => {
          log.error({ err: error, network, address }, 'chain adapter did not take a new deposit address to watch');
        }),
      ),
    );
  }

  return {
    /** `addresses`: one entry per coin with the caller's address on each of its networks, allocated on first ask. */
    async entries(userId: string): Promise<WalletAddressEntry[]> {
      const repository = depositAddressesRepository(deps.db);
      let rows = await repository.entriesOf(userId);
      const missing = missingNetworks(rows);
      if (missing.length > 0) {
        await watchAll(await allocate(userId, missing));
        rows = await repository.entriesOf(userId);
      }
      return entriesOf(rows, deps.confirmationsToCredit);
    },
  };
}
export type DepositAddresses = ReturnType<typeof depositAddresses>;

/**
 * The networks the user has no address on yet, once each (USDT on Ethereum shares ETH's), in lock order: the
 * built-in ones in NETWORK_KEYS order, then the others by key. Each comes with the account it derives from
 * (`ethereum` for another EVM network), which may be skipped later as already allocated. A network key the
 * server cannot derive for (an operator's row with no configuration) is left out.
 */
function missingNetworks(rows: readonly AddressRow[]): NetworkKey[] {
  const missing = new Set<NetworkKey>();
  for (const row of rows) {
    const chain = row.network_id !== null && row.address === null ? chainNetworkOf(row.network_key) : undefined;
    if (chain) missing.add(chain.account).add(chain.key);
  }
  const others = [...missing].filter((network) => !isBuiltInNetworkKey(network)).sort();
  return [...NETWORK_KEYS.filter((network) => missing.has(network)), ...others];
}

/** Folds the coin × network rows (coin order, then network order) into one entry per coin. */
function entriesOf(rows: readonly AddressRow[], confirmationsToCredit: (network: NetworkKey) => number): WalletAddressEntry[] {
  const entries = new Map<number, WalletAddressEntry>();
  for (const row of rows) {
    let entry = entries.get(row.coin_id);
    if (!entry) {
      entry = {
        coin: { id: row.coin_id, label: row.label, ticker: row.ticker, image: row.image, price: row.usd_price, decimal_places: row.decimal_places },
        balance: fixed(row.balance, row.decimal_places),
        networks: [],
      };
      entries.set(row.coin_id, entry);
    }
    // No network row, or one no address can be derived for: nothing the trader could deposit to.
    if (row.network_id === null || chainNetworkOf(row.network_key) === undefined || row.address === null) continue;
    entry.networks.push({
      id: row.network_id,
      name: row.network_name,
      image: row.network_image,
      key: row.network_key,
      address: row.address,
      confirmations: confirmationsToCredit(row.network_key),
    });
  }
  return [...entries.values()];
}

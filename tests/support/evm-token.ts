import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, type Abi, type Address, type Hash, type Hex, type TransactionReceipt } from 'viem';
import { hardhat } from 'viem/chains';

/**
 * A real USDT-like ERC-20 for the EVM tests: tests/support/usdt.sol (OpenZeppelin's ERC20 + Ownable, 6 decimals),
 * compiled by solc-js's bundled compiler with OpenZeppelin's sources from node_modules, so nothing is downloaded,
 * then deployed on a node from tests/support/evm-node.ts by its first unlocked account.
 */
export interface UsdtArtifact {
  abi: Abi;
  bytecode: Hex;
}

/** The part of solc-js used here; the package ships no types. */
interface Solc {
  compile(input: string, callbacks: { import(path: string): { contents: string } | { error: string } }): string;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

const require = createRequire(import.meta.url);
const SOURCE_NAME = 'usdt.sol';
const CONTRACT = 'TetherUSD';
const OPENZEPPELIN = '@openzeppelin/contracts/';

function compilerInput(): string {
  const content = readFileSync(new URL('./usdt.sol', import.meta.url), 'utf8');
  return JSON.stringify({
    language: 'Solidity',
    sources: { [SOURCE_NAME]: { content } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { [SOURCE_NAME]: { [CONTRACT]: ['abi', 'evm.bytecode.object'] } },
    },
  });
}

/** solc asks for each import by name; only OpenZeppelin's, read from the installed package, are answered. */
function findImport(path: string): { contents: string } | { error: string } {
  if (!path.startsWith(OPENZEPPELIN)) return { error: `${path}: only ${OPENZEPPELIN} imports are resolved` };
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch (error) {
    return { error: `${path}: ${(error as Error).message}` };
  }
}

function compile(input: string): UsdtArtifact {
  // Loaded only here: requiring solc evaluates its 9 MB bundled compiler, which a cached artifact does not need.
  const solc = require('solc') as Solc;
  const output = JSON.parse(solc.compile(input, { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error');
  if (errors.length) throw new Error(`usdt.sol does not compile:\n${errors.map((entry) => entry.formattedMessage).join('\n')}`);
  const contract = output.contracts?.[SOURCE_NAME]?.[CONTRACT];
  if (!contract?.evm.bytecode.object) throw new Error(`solc produced no bytecode for ${CONTRACT}`);
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

let compiled: UsdtArtifact | undefined;

/**
 * The compiled token, once per process. A compile takes seconds and every test file runs in its own worker, so the
 * artifact is also kept under the system's temporary folder, named by a hash of everything that decides it: the
 * compiler input and the versions of solc and OpenZeppelin. A changed source or package gets a new file.
 */
export function compileUsdt(): UsdtArtifact {
  if (compiled) return compiled;
  const input = compilerInput();
  const versions = ['solc/package.json', '@openzeppelin/contracts/package.json']
    .map((file) => (require(file) as { version: string }).version)
    .join(' ');
  const key = createHash('sha256').update(`${versions}\n${input}`).digest('hex').slice(0, 32);
  const folder = join(tmpdir(), 'peerex-evm-token');
  const file = join(folder, `${key}.json`);
  try {
    compiled = JSON.parse(readFileSync(file, 'utf8')) as UsdtArtifact;
    return compiled;
  } catch {
    // Not cached yet (or unreadable): compile and write it below.
  }
  compiled = compile(input);
  mkdirSync(folder, { recursive: true });
  // Written aside then renamed, so a test file compiling at the same moment never reads half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(compiled));
  renameSync(partial, file);
  return compiled;
}

export interface UsdtToken {
  address: Address;
  abi: Abi;
  /** The account that deployed the token and alone may mint. */
  owner: Address;
  /** Mints units (1 USDT = 1_000_000 units) and waits for the transaction's receipt. */
  mint(to: Address, units: bigint): Promise<TransactionReceipt>;
  /** Transfers from an unlocked account of the node and waits for the receipt. */
  transfer(from: Address, to: Address, units: bigint): Promise<TransactionReceipt>;
  /** Sends the same transfer without waiting, for a test that mines by hand (`evm_setAutomine` off). */
  submitTransfer(from: Address, to: Address, units: bigint): Promise<Hash>;
  balanceOf(holder: Address): Promise<bigint>;
}

/** Deploys a fresh token from the node's first unlocked account (or `options.from`, another unlocked one). */
export async function deployUsdt(nodeUrl: string, options: { from?: Address } = {}): Promise<UsdtToken> {
  const { abi, bytecode } = compileUsdt();
  const transport = http(nodeUrl);
  // Polled often: a test that mines by hand should see its receipt at once, not after viem's default 4 s.
  const reader = createPublicClient({ chain: hardhat, transport, pollingInterval: 100 });
  const wallet = createWalletClient({ chain: hardhat, transport });
  const owner = options.from ?? (await wallet.getAddresses())[0];
  if (!owner) throw new Error(`the node at ${nodeUrl} has no unlocked account`);

  const settle = async (hash: Hash, what: string) => {
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${what} reverted in transaction ${hash}`);
    return receipt;
  };

  // A plain address as the account: viem sends eth_sendTransaction and the node signs with its unlocked key.
  const deployed = await settle(await wallet.deployContract({ abi, bytecode, account: owner }), 'the deployment');
  const address = deployed.contractAddress;
  if (!address) throw new Error('the deployment has no contract address');

  const submitTransfer = (from: Address, to: Address, units: bigint) =>
    wallet.writeContract({ address, abi, functionName: 'transfer', args: [to, units], account: from });
  return {
    address,
    abi,
    owner,
    mint: async (to, units) =>
      settle(await wallet.writeContract({ address, abi, functionName: 'mint', args: [to, units], account: owner }), 'mint'),
    transfer: async (from, to, units) => settle(await submitTransfer(from, to, units), 'transfer'),
    submitTransfer,
    balanceOf: async (holder) => (await reader.readContract({ address, abi, functionName: 'balanceOf', args: [holder] })) as bigint,
  };
}

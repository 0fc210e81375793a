import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/**
 * A real EVM node for tests: Hardhat Network's JSON-RPC node from the `hardhat` 2.x package (2.29 runs on Node 20),
 * on 127.0.0.1 and a free port, offline. Its 20 accounts are unlocked and funded with 10,000 ETH each, so a test
 * sends from them with plain `eth_sendTransaction`; `evm_mine`, `evm_snapshot` and `evm_revert` make blocks and
 * re-organisations on demand (automining is on: each transaction gets its own block).
 */
export interface EvmNode {
  url: string;
  chainId: number;
  stop(): Promise<void>;
}

export const HARDHAT_CHAIN_ID = 31337;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** Starts a node and resolves once it answers; its configuration lives in a temporary folder, never in the repository. */
export async function startEvmNode(): Promise<EvmNode> {
  const folder = mkdtempSync(join(tmpdir(), 'peerex-evm-'));
  const config = join(folder, 'hardhat.config.cjs');
  // Nothing to compile: the node only serves JSON-RPC. Its cache goes to the temporary folder.
  writeFileSync(config, `module.exports = { networks: { hardhat: { chainId: ${HARDHAT_CHAIN_ID} } }, paths: { cache: ${JSON.stringify(join(folder, 'cache'))} } };\n`);
  const cli = createRequire(import.meta.url).resolve('hardhat/internal/cli/cli.js');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [cli, '--config', config, 'node', '--hostname', '127.0.0.1', '--port', String(port)], {
    // Hardhat runs only from a folder where it is installed (HH12): the repository's.
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await exited(child);
    rmSync(folder, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the Hardhat node did not start on ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, chainId: HARDHAT_CHAIN_ID, stop };
}

/**
 * EVM_NETWORKS=ethereum on `node`, read from its first block, with the `EVM_ETHEREUM_*` settings given
 * (`{ CONFIRMATIONS: '12', TOKENS: … }`): the environment every EVM test starts its app or command with.
 */
export function ethereumEnvironment(node: EvmNode, settings: Record<string, string> = {}): Record<string, string> {
  return {
    EVM_NETWORKS: 'ethereum',
    EVM_ETHEREUM_CHAIN_ID: String(node.chainId),
    EVM_ETHEREUM_RPC_URL: node.url,
    EVM_ETHEREUM_START_BLOCK: '0',
    ...Object.fromEntries(Object.entries(settings).map(([setting, value]) => [`EVM_ETHEREUM_${setting}`, value])),
  };
}

/** A fresh hot-wallet key in a temporary file only its owner may read, as an operator keeps it. */
export function hotWalletKeyFile(): { address: `0x${string}`; path: string; remove(): void } {
  const key = generatePrivateKey();
  const folder = mkdtempSync(join(tmpdir(), 'peerex-hot-'));
  const path = join(folder, 'hot.key');
  writeFileSync(path, `${key}\n`);
  chmodSync(path, 0o600);
  return { address: privateKeyToAccount(key).address, path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * `npm run wallet:xpubs`: prints the WALLET_XPUB_* lines a production server needs, from a BIP-39
 * mnemonic read on standard input (`npm run wallet:xpubs < mnemonic.txt`), or from a new one with `--new`
 * (which prints the mnemonic first: write it down, it is the only copy of the spending keys).
 *
 * Run it on a machine that is offline and trusted; only the printed extended *public* keys go to the
 * server, which can then derive deposit addresses and watch them but never spend.
 */
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { text } from 'node:stream/consumers';
import { xpubEnvironmentOf } from '../wallets/keys.ts';

async function main(): Promise<number> {
  const fresh = process.argv.includes('--new');
  const mnemonic = fresh ? generateMnemonic(wordlist, 256) : (await text(process.stdin)).trim().split(/\s+/).join(' ');
  if (!validateMnemonic(mnemonic, wordlist)) {
    console.error('wallet:xpubs: standard input is not a BIP-39 mnemonic (English word list). Use --new to make one.');
    return 1;
  }
  if (fresh) console.log(`# The mnemonic (keep it offline; the server must never see it):\n# ${mnemonic}\n`);
  for (const [name, value] of Object.entries(xpubEnvironmentOf(mnemonic))) console.log(`${name}=${value}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

import { readFile, stat } from 'node:fs/promises';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

/** A secret file that cannot be used: its sentence names the file and says what to do. */
export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

/**
 * A secret the operator keeps in a file (`what`: "the gas key file"), trimmed; refused when it is not a readable
 * file, or, with `ownerOnly`, when group or others may read it.
 */
export async function readSecretFile(path: string, what: string, ownerOnly: boolean): Promise<string> {
  const info = await stat(path).catch((error: Error) => {
    throw new KeyFileError(`${what} ${path} cannot be read: ${error.message}`);
  });
  if (!info.isFile()) throw new KeyFileError(`${what} ${path} is not a file`);
  if (ownerOnly && (info.mode & 0o077) !== 0) {
    throw new KeyFileError(`${what} ${path} is open to group or others (mode ${(info.mode & 0o777).toString(8)}): chmod 600 it`);
  }
  return (await readFile(path, 'utf8')).trim();
}

/** The account of a private key kept in a file as 64 hex digits (with or without 0x), as readSecretFile reads it. */
export async function readPrivateKeyFile(path: string, what: string, ownerOnly: boolean): Promise<PrivateKeyAccount> {
  const digits = (await readSecretFile(path, what, ownerOnly)).replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(digits)) throw new KeyFileError(`${what} ${path} does not hold a private key (64 hex digits, with or without 0x)`);
  try {
    return privateKeyToAccount(`0x${digits.toLowerCase()}`);
  } catch {
    throw new KeyFileError(`${what} ${path} does not hold a valid secp256k1 private key`);
  }
}

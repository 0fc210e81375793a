import { hash, verify, type Options } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

export interface Argon2Parameters {
  /** KiB of memory per hash. */
  memoryCost: number;
  /** Passes over that memory. */
  timeCost: number;
  parallelism: number;
}

/**
 * OWASP Password Storage Cheat Sheet, argon2id option 2 (19 MiB, 2 passes, 1 lane): the memory-hard
 * setting that still allows dozens of logins per second per core (see bench/README.md).
 */
export const OWASP_ARGON2ID: Argon2Parameters = Object.freeze({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });

/** `Algorithm.Argon2id` of @node-rs/argon2; its enum is `const`, which isolated modules cannot import. */
const ARGON2ID = 2 satisfies Options['algorithm'];

export interface PasswordHasher {
  readonly parameters: Argon2Parameters;
  hash(password: string): Promise<string>;
  /** Checks a password against a stored hash; a missing account is checked against a dummy hash so both take as long. */
  verify(storedHash: string | undefined, password: string): Promise<boolean>;
  /** True when a stored hash was made with other parameters than today's and should be replaced. */
  needsRehash(storedHash: string): boolean;
}

export function createPasswordHasher(parameters: Argon2Parameters = OWASP_ARGON2ID): PasswordHasher {
  const options: Options = { ...parameters, algorithm: ARGON2ID };
  const current = `$argon2id$v=19$m=${parameters.memoryCost},t=${parameters.timeCost},p=${parameters.parallelism}$`;
  // Made once, lazily, with the same parameters as real hashes: verifying against it costs what a real check costs.
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hash(randomBytes(32).toString('base64url'), options));

  return {
    parameters,
    hash: (password) => hash(password, options),
    async verify(storedHash, password) {
      if (storedHash === undefined) {
        await verify(await dummyHash(), password).catch(() => false);
        return false;
      }
      // A malformed stored hash is a data problem, not a reason to let anyone in or to crash the request.
      return verify(storedHash, password).catch(() => false);
    },
    needsRehash: (storedHash) => !storedHash.startsWith(current),
  };
}

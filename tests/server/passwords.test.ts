import { describe, expect, it } from 'vitest';
import { createPasswordHasher, OWASP_ARGON2ID } from '../../server/src/infra/passwords.ts';

describe('password hashing', () => {
  it('defaults to argon2id with the OWASP parameters (19 MiB, 2 passes, 1 lane)', async () => {
    expect(OWASP_ARGON2ID).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const hasher = createPasswordHasher();
    const hash = await hasher.hash('peerex-demo');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(hash, 'peerex-demo')).toBe(true);
    expect(await hasher.verify(hash, 'peerex-demO')).toBe(false);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it('salts every hash', async () => {
    const hasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await hasher.hash('same')).not.toBe(await hasher.hash('same'));
  });

  it('checks a missing account against a dummy hash and never matches', async () => {
    const hasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await hasher.verify(undefined, 'anything')).toBe(false);
  });

  it('treats a damaged stored hash as a mismatch, not a crash', async () => {
    const hasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await hasher.verify('$argon2id$garbage', 'anything')).toBe(false);
  });

  it('asks for a rehash when the parameters changed', async () => {
    const old = createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(createPasswordHasher().needsRehash(await old.hash('x'))).toBe(true);
  });
});

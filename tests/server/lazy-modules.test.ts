import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * What a start does without (bench/README.md "Restart to ready"): nodemailer until the first mail, PGlite's modules
 * in a thread that opens none (the production build's server opens PGlite on a thread of its own), and the EVM
 * stack (viem) without an EVM network. Each module below is the real one, noted as it is first imported.
 */
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('nodemailer', async (importOriginal) => {
  loaded.add('nodemailer');
  return importOriginal();
});
vi.mock('@electric-sql/pglite', async (importOriginal) => {
  loaded.add('pglite');
  return importOriginal();
});
vi.mock('../../server/src/chain/evm/networks.ts', async (importOriginal) => {
  loaded.add('evm networks');
  return importOriginal();
});
vi.mock('../../server/src/chain/reconcile.ts', async (importOriginal) => {
  loaded.add('reconcile');
  return importOriginal();
});

describe('modules a start loads only when it needs them', () => {
  // In order: the app of the last test imports the test support, which compiles PGlite itself.
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing) await close();
  });

  it('nodemailer, at the first mail through SMTP_URL', async () => {
    const { smtpTransport } = await import('../../server/src/infra/mail.ts');
    // Port 9 (discard): nothing listens there, so the mail fails; what matters is what it loaded.
    const transport = smtpTransport('smtp://127.0.0.1:9');
    expect(loaded.has('nodemailer')).toBe(false);
    await expect(transport.deliver({ from: 'a@peerex.test', to: 'b@peerex.test', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow();
    expect(loaded.has('nodemailer')).toBe(true);
    await transport.close();
  });

  it("PGlite's modules, at the first open", async () => {
    const { MEMORY_DATA_DIR, openPglite } = await import('../../server/src/infra/db/pglite.ts');
    expect(loaded.has('pglite')).toBe(false);
    const db = await openPglite({ dataDir: MEMORY_DATA_DIR });
    closing.push(() => db.close());
    expect(loaded.has('pglite')).toBe(true);
    expect(await db.one('SELECT 1 AS one')).toEqual({ one: 1 });
  }, 60_000);

  it('the EVM stack, neither for the chain adapters nor for the operator overview without an EVM network', async () => {
    const { createTestApp } = await import('../support/server.ts');
    const t = await createTestApp('pglite');
    closing.push(() => t.close());
    expect(t.config.evmNetworks).toEqual([]);
    expect(loaded.has('evm networks')).toBe(false);
    expect(loaded.has('reconcile')).toBe(false);
  }, 60_000);
});

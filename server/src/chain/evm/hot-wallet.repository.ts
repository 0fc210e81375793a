import type { Queryable } from '../../infra/db/db.ts';

/** A payment of the hot wallet (evm_hot_wallet_payments, migration 028) with its latest attempt. */
export interface HotWalletPaymentRow {
  reference: string;
  network: string;
  wallet: string;
  /** bigint and numeric columns come back as strings (infra/db/db.ts). */
  nonce: string;
  asset: string;
  token: string | null;
  recipient: string;
  amount: string;
  units: string;
  created_at: Date;
  reported_hash: string;
  mined_hash: string | null;
  mined_block: string | null;
  outcome: 'paid' | 'reverted' | null;
  /** The latest attempt: the one to send again, and the fees a replacement must beat. */
  attempt: number;
  hash: string;
  raw: string;
  gas: string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  attempt_created_at: Date;
}

export interface HotWalletAttemptInput {
  hash: string;
  reference: string;
  attempt: number;
  raw: string;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  createdAt: Date;
}

const PAYMENT_COLUMNS = `p.reference, p.network, p.wallet, p.nonce::text AS nonce, p.asset, p.token, p.recipient, p.amount::text AS amount,
  p.units::text AS units, p.created_at, p.reported_hash, p.mined_hash, p.mined_block::text AS mined_block, p.outcome,
  a.attempt, a.hash, a.raw, a.gas::text AS gas, a.max_fee_per_gas::text AS max_fee_per_gas,
  a.max_priority_fee_per_gas::text AS max_priority_fee_per_gas, a.created_at AS attempt_created_at`;

const WITH_LATEST_ATTEMPT = `evm_hot_wallet_payments p
  JOIN LATERAL (SELECT * FROM evm_hot_wallet_attempts a WHERE a.reference = p.reference ORDER BY a.attempt DESC LIMIT 1) a ON true`;

/**
 * The hot wallet's SQL (chain/evm/hot-wallet.ts, migration 028). A payment's nonce is reserved under the lock of
 * its wallet's row (`lockWallet`, then `insertPayment`, `insertAttempt` and `setNextNonce` in the same
 * transaction); every later write is guarded by the state it changes, so several processes may tend one wallet.
 */
export function hotWalletRepository(db: Queryable) {
  return {
    /** The wallet's row, created with `firstNonce` (the chain's pending count) the first time it pays on this network. */
    ensureWallet: (network: string, address: string, firstNonce: bigint) =>
      db.query('INSERT INTO evm_hot_wallets (network, address, next_nonce) VALUES ($1, $2, $3) ON CONFLICT (network, address) DO NOTHING', [
        network,
        address,
        firstNonce.toString(),
      ]),

    /** The wallet's next nonce, its row locked until the transaction ends: payments reserve nonces one at a time. */
    lockWallet: async (network: string, address: string) =>
      BigInt(
        (
          await db.one<{ next_nonce: string }>('SELECT next_nonce::text AS next_nonce FROM evm_hot_wallets WHERE network = $1 AND address = $2 FOR UPDATE', [
            network,
            address,
          ])
        ).next_nonce,
      ),

    setNextNonce: (network: string, address: string, next: bigint) =>
      db.query('UPDATE evm_hot_wallets SET next_nonce = $3 WHERE network = $1 AND address = $2', [network, address, next.toString()]),

    /** The payment made under this reference, with its latest attempt, if any. */
    paymentOf: (reference: string) =>
      db.maybe<HotWalletPaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM ${WITH_LATEST_ATTEMPT} WHERE p.reference = $1`, [reference]),

    /**
     * What the wallet's unsettled payments at nonces from `fromNonce` on (not yet in a block: the balance read
     * at that block does not show them) will still take from it: wei (the coin sent and each one's gas at its
     * latest attempt's fee cap), and token units per token contract.
     */
    reservedFrom: async (network: string, address: string, fromNonce: bigint) => {
      const rows = await db.query<{ token: string | null; wei: string; units: string }>(
        `SELECT p.token,
                sum(CASE WHEN p.token IS NULL THEN p.units ELSE 0 END + a.gas * a.max_fee_per_gas)::text AS wei,
                sum(CASE WHEN p.token IS NULL THEN 0 ELSE p.units END)::text AS units
         FROM ${WITH_LATEST_ATTEMPT}
         WHERE p.network = $1 AND p.wallet = $2 AND p.outcome IS NULL AND p.nonce >= $3
         GROUP BY p.token`,
        [network, address, fromNonce.toString()],
      );
      let wei = 0n;
      const tokens = new Map<string, bigint>();
      for (const row of rows) {
        wei += BigInt(row.wei);
        if (row.token !== null) tokens.set(row.token, BigInt(row.units));
      }
      return { wei, tokens };
    },

    insertPayment: (payment: {
      reference: string;
      network: string;
      wallet: string;
      nonce: bigint;
      asset: string;
      token: string | null;
      recipient: string;
      amount: string;
      units: bigint;
      createdAt: Date;
      hash: string;
    }) =>
      db.query(
        `INSERT INTO evm_hot_wallet_payments (reference, network, wallet, nonce, asset, token, recipient, amount, units, created_at, reported_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          payment.reference,
          payment.network,
          payment.wallet,
          payment.nonce.toString(),
          payment.asset,
          payment.token,
          payment.recipient,
          payment.amount,
          payment.units.toString(),
          payment.createdAt,
          payment.hash,
        ],
      ),

    /** Stores an attempt unless another process stored this attempt number first; answers whether this call stored it. */
    insertAttempt: async (attempt: HotWalletAttemptInput) =>
      (
        await db.query(
          `INSERT INTO evm_hot_wallet_attempts (hash, reference, attempt, raw, gas, max_fee_per_gas, max_priority_fee_per_gas, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (reference, attempt) DO NOTHING RETURNING hash`,
          [
            attempt.hash,
            attempt.reference,
            attempt.attempt,
            attempt.raw,
            attempt.gas.toString(),
            attempt.maxFeePerGas.toString(),
            attempt.maxPriorityFeePerGas.toString(),
            attempt.createdAt,
          ],
        )
      ).length > 0,

    /** The wallet's payments the chain has not settled yet, by nonce, each with its latest attempt. */
    openPayments: (network: string, address: string) =>
      db.query<HotWalletPaymentRow>(
        `SELECT ${PAYMENT_COLUMNS} FROM ${WITH_LATEST_ATTEMPT}
         WHERE p.network = $1 AND p.wallet = $2 AND p.outcome IS NULL ORDER BY p.nonce`,
        [network, address],
      ),

    /** The wallet's payments whose transaction was mined and reverted: nothing was paid, the operator must look. */
    revertedPayments: (network: string, address: string) =>
      db.query<{ reference: string; mined_hash: string }>(
        `SELECT reference, mined_hash FROM evm_hot_wallet_payments WHERE network = $1 AND wallet = $2 AND outcome = 'reverted' ORDER BY nonce`,
        [network, address],
      ),

    /** Every attempt of a payment, newest first. */
    attemptsOf: (reference: string) =>
      db.query<{ hash: string; attempt: number }>('SELECT hash, attempt FROM evm_hot_wallet_attempts WHERE reference = $1 ORDER BY attempt DESC', [
        reference,
      ]),

    /** For each of these hashes that is an attempt of a payment: every attempt of that payment (its mined one first, then newest first). */
    siblingsOf: async (hashes: readonly string[]) => {
      const rows = await db.query<{ asked: string; hash: string }>(
        `SELECT asked.hash AS asked, sibling.hash
         FROM evm_hot_wallet_attempts asked
         JOIN evm_hot_wallet_attempts sibling ON sibling.reference = asked.reference
         JOIN evm_hot_wallet_payments p ON p.reference = asked.reference
         WHERE asked.hash = ANY($1::text[])
         ORDER BY asked.hash, (sibling.hash = p.mined_hash) DESC, sibling.attempt DESC`,
        [hashes],
      );
      const siblings = new Map<string, string[]>();
      for (const row of rows) siblings.set(row.asked, [...(siblings.get(row.asked) ?? []), row.hash]);
      return siblings;
    },

    /** Records which attempt a block holds (or none: `hash` null after a re-organisation took it away). */
    setMined: (reference: string, hash: string | null, block: bigint | null) =>
      db.query(
        `UPDATE evm_hot_wallet_payments SET mined_hash = $2, mined_block = $3
         WHERE reference = $1 AND outcome IS NULL AND (mined_hash IS DISTINCT FROM $2 OR mined_block IS DISTINCT FROM $3)`,
        [reference, hash, block === null ? null : block.toString()],
      ),

    /** The mined attempt is deep enough: the payment is settled as paid or reverted; answers whether this call settled it. */
    settle: async (reference: string, hash: string, block: bigint, outcome: 'paid' | 'reverted', at: Date) =>
      (
        await db.query(
          `UPDATE evm_hot_wallet_payments SET mined_hash = $2, mined_block = $3, outcome = $4, settled_at = $5
           WHERE reference = $1 AND outcome IS NULL RETURNING reference`,
          [reference, hash, block.toString(), outcome, at],
        )
      ).length > 0,

    /** The transaction id last answered for the payment. */
    setReported: (reference: string, hash: string) =>
      db.query('UPDATE evm_hot_wallet_payments SET reported_hash = $2 WHERE reference = $1 AND reported_hash <> $2', [reference, hash]),
  };
}

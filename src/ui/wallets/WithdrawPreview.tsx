import { css } from 'styled-system/css';
import type { WithdrawalPreview } from '../../../contracts/index.ts';
import { formatCrypto, formatUsd } from '../format/money.ts';

const grid = css({ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: '4', rowGap: '2', fontSize: 'sm', bg: 'bg.muted', borderRadius: 'lg', p: '4' });
const label = css({ color: 'fg.muted' });
const value = css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', fontWeight: 'medium', overflowWrap: 'anywhere' });
const strong = css({ fontWeight: 'bold' });
const note = css({ gridColumn: '1 / -1', color: 'fg.muted', fontSize: 'xs' });

/** The server's preview: the fee in USD and in the coin, and what leaves and arrives. */
export function WithdrawPreview({ preview, places, ticker }: { preview: WithdrawalPreview; places: number; ticker: string }) {
  const crypto = (amount: string) => formatCrypto(amount, places, ticker);
  return (
    <dl className={grid} aria-label="Withdrawal preview">
      <dt className={label}>Amount</dt>
      <dd className={value}>
        {crypto(preview.amount_crypto)} ({formatUsd(preview.amount_usd)})
      </dd>
      <dt className={label}>Network fee (USD)</dt>
      <dd className={value}>{formatUsd(preview.fee_usd)}</dd>
      <dt className={label}>Network fee (Crypto)</dt>
      <dd className={value}>{crypto(preview.fee_crypto)}</dd>
      <dt className={label}>Recipient receives</dt>
      <dd className={`${value} ${strong}`}>{crypto(preview.receive_crypto)}</dd>
      {preview.scope === 'internal' ? (
        <p className={note}>This address belongs to another Peerex trader: the transfer settles at once, without a network fee.</p>
      ) : null}
    </dl>
  );
}

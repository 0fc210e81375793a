import { Link } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import type { WalletItem } from '../../../contracts/index.ts';
import type { LivePrices } from '../../machines/livePrices/livePrices.selectors.ts';
import { holdingValue, livePriceOf } from '../../machines/wallets/wallets.selectors.ts';
import { formatCrypto, formatUsd } from '../format/money.ts';
import { Card } from '../primitives/Card.tsx';
import { PriceMove, movingFigure } from '../prices/PriceMove.tsx';

/** What a masked figure shows instead of its digits. */
export const MASK = '••••••';

const head = css({ display: 'flex', alignItems: 'center', gap: '3' });
const coin = css({ minW: '0' });
const label = css({ fontWeight: 'semibold', lineHeight: 'tight' });
const ticker = css({ color: 'fg.muted', fontSize: 'xs', fontWeight: 'medium', letterSpacing: '0.04em' });
const price = css({ ml: 'auto', fontSize: 'sm', fontWeight: 'medium', whiteSpace: 'nowrap' });
const figures = css({ mt: '5', display: 'flex', flexDirection: 'column', gap: '1' });
const caption = css({ color: 'fg.muted', fontSize: 'xs', textTransform: 'uppercase', letterSpacing: '0.06em' });
const balance = css({
  fontSize: 'xl',
  fontWeight: 'bold',
  fontVariantNumeric: 'tabular-nums',
  overflowWrap: 'anywhere',
  lineHeight: 'snug',
});
const value = css({ color: 'fg.muted', fontSize: 'sm', fontVariantNumeric: 'tabular-nums' });
const foot = css({ mt: '4', pt: '3', borderTopWidth: '1px', borderColor: 'border', display: 'flex', justifyContent: 'flex-end' });
const depositLink = css({ color: 'accent', fontSize: 'sm', fontWeight: 'medium', _hover: { textDecoration: 'underline' } });

/**
 * One coin of My Wallets: image, label, upper-case ticker, the live USD price coloured by its last move, the
 * balance to the coin's places and the holding's USD value (both dots while masked).
 */
export function WalletCard({ wallet, prices, masked }: { wallet: WalletItem; prices: LivePrices | undefined; masked: boolean }) {
  const live = livePriceOf(wallet, prices);
  const upper = wallet.coin__ticker.toUpperCase();
  return (
    <Card role="article" aria-label={`${wallet.coin__label} wallet`}>
      <div className={head}>
        <img src={wallet.coin__image} alt="" width={40} height={40} />
        <div className={coin}>
          <div className={label}>{wallet.coin__label}</div>
          <div className={ticker}>{upper}</div>
        </div>
        <div className={`${price} ${movingFigure}`} data-direction={live.direction ?? undefined} aria-label={`${upper} price`}>
          <span>{formatUsd(live.price)}</span>
          <PriceMove direction={live.direction} />
        </div>
      </div>
      <div className={figures}>
        <span className={caption}>Balance</span>
        <span className={balance} data-masked={masked || undefined}>
          {masked ? MASK : formatCrypto(wallet.balance, wallet.coin__decimal_places, wallet.coin__ticker)}
        </span>
        <span className={value}>{masked ? MASK : `≈ ${formatUsd(holdingValue(wallet, live.price))}`}</span>
      </div>
      <div className={foot}>
        <Link to="/wallets/deposit" search={{ coin: upper }} className={depositLink} aria-label={`Deposit ${wallet.coin__label}`}>
          Deposit
        </Link>
      </div>
    </Card>
  );
}

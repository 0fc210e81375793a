import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { PriceDirection } from '../../machines/livePrices/livePrices.machine.ts';
import { selectPrices } from '../../machines/livePrices/livePrices.selectors.ts';
import type { walletsMachine } from '../../machines/wallets/wallets.machine.ts';
import {
  selectIsLoading,
  selectIsMasked,
  selectLivePrices,
  selectTotal,
  selectTotalDirection,
  selectWallets,
} from '../../machines/wallets/wallets.selectors.ts';
import { formatUsd } from '../format/money.ts';
import { PageHeader } from '../pages/PageHeader.tsx';
import { Button, ButtonLink } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { ArrowDownIcon, ArrowUpIcon, EyeIcon, EyeOffIcon } from '../primitives/icons.tsx';
import { movingFigure } from '../prices/PriceMove.tsx';
import { MASK, WalletCard } from './WalletCard.tsx';

const actions = css({ display: 'flex', flexWrap: 'wrap', gap: '2' });
const summary = css({
  mt: '6',
  display: 'flex',
  flexDirection: { base: 'column', sm: 'row' },
  alignItems: { base: 'flex-start', sm: 'center' },
  justifyContent: 'space-between',
  gap: '4',
});
const totalLabel = css({ color: 'fg.muted', fontSize: 'sm', fontWeight: 'medium' });
const totalFigure = css({
  mt: '1',
  fontSize: { base: '3xl', md: '4xl' },
  fontWeight: 'bold',
  letterSpacing: '-0.02em',
  gap: '2!',
  color: 'fg',
});
const hidden = css({ srOnly: true });
const grid = css({
  mt: '6',
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
  gap: '4',
});
const empty = css({ mt: '6', color: 'fg.muted', textAlign: 'center', py: '12' });

/** The total's arrow, with words for screen readers; nothing before there is a previous total. */
function TotalMove({ direction }: { direction: PriceDirection | null }) {
  if (direction === null) return null;
  return (
    <>
      {direction === 'up' ? <ArrowUpIcon width={22} height={22} /> : <ArrowDownIcon width={22} height={22} />}
      <span className={hidden}>{direction === 'up' ? 'total up' : 'total down'}</span>
    </>
  );
}

type WalletsActor = ActorRefFrom<typeof walletsMachine>;

export function WalletsScreen({ actor }: { actor: WalletsActor }) {
  const wallets = useSelector(actor, selectWallets);
  const loading = useSelector(actor, selectIsLoading);
  const masked = useSelector(actor, selectIsMasked);
  const livePrices = useSelector(actor, selectLivePrices);
  const prices = useSelector(livePrices, (snapshot) => snapshot && selectPrices(snapshot));

  return (
    <section aria-busy={loading}>
      <PageHeader
        title="My Wallets"
        subtitle="Your balances in every coin, at live prices."
        actions={
          <div className={actions}>
            <ButtonLink to="/wallets/deposit">Deposit</ButtonLink>
            <ButtonLink to="/wallets/withdraw" variant="outline">
              Withdraw
            </ButtonLink>
            <ButtonLink to="/wallets/transactions" variant="outline">
              History
            </ButtonLink>
          </div>
        }
      />

      <PortfolioTotal actor={actor} masked={masked} />

      {wallets === null ? (
        loading ? (
          <p className={empty}>Loading wallets…</p>
        ) : null
      ) : (
        <div className={grid}>
          {wallets.map((wallet) => (
            <WalletCard key={wallet.id} wallet={wallet} prices={prices} masked={masked} />
          ))}
        </div>
      )}
    </section>
  );
}

/** The total of every balance at live prices, coloured by its last move, and the show/hide toggle of all balances. */
function PortfolioTotal({ actor, masked }: { actor: WalletsActor; masked: boolean }) {
  const total = useSelector(actor, selectTotal);
  const direction = useSelector(actor, selectTotalDirection);
  return (
    <Card className={summary} role="region" aria-labelledby="portfolio-total">
      <div>
        <div id="portfolio-total" className={totalLabel}>
          Total Portfolio Value
        </div>
        <div className={`${movingFigure} ${totalFigure}`} data-direction={direction ?? undefined}>
          <span>{masked ? MASK : total === null ? '—' : formatUsd(total)}</span>
          <TotalMove direction={direction} />
        </div>
      </div>
      <Button variant="outline" onClick={() => actor.send({ type: 'balances.toggle' })}>
        {masked ? <EyeIcon /> : <EyeOffIcon />}
        {masked ? 'Show balances' : 'Hide balances'}
      </Button>
    </Card>
  );
}

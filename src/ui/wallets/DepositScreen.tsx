import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import { DEPOSIT_MIN_USD } from '../../../contracts/index.ts';
import type { depositMachine } from '../../machines/deposit/deposit.machine.ts';
import {
  selectAddress,
  selectCanCopy,
  selectEntries,
  selectEntry,
  selectIsLoading,
  selectIsPickingNetwork,
  selectNeedsNetworkChoice,
  selectNetwork,
  selectShowsPrompt,
} from '../../machines/deposit/deposit.selectors.ts';
import { formatCrypto } from '../format/money.ts';
import { PageHeader } from '../pages/PageHeader.tsx';
import { ButtonLink } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { ArrowLeftIcon, ShieldIcon } from '../primitives/icons.tsx';
import { dashedPlaceholder } from '../primitives/looks.ts';
import { SelectField } from '../primitives/SelectField.tsx';
import { DepositAddress } from './DepositAddress.tsx';

const layout = css({
  mt: '6',
  display: 'grid',
  gridTemplateColumns: { base: '1fr', lg: '2fr 3fr' },
  gap: '4',
  alignItems: 'start',
});
const column = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const panelTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '4' });
const details = css({ mt: '5', display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' });
const detail = css({ display: 'flex', alignItems: 'center', gap: '2', py: '1' });
const detailName = css({ color: 'fg.muted' });
const strong = css({ fontWeight: 'semibold' });
const balance = css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap', fontSize: 'sm', mt: '4', color: 'fg.muted', '& strong': { color: 'fg', fontVariantNumeric: 'tabular-nums' } });
const notice = css({
  display: 'flex',
  gap: '3',
  bg: 'warning.subtle',
  color: 'fg',
  borderRadius: 'xl',
  p: { base: '4', md: '5' },
  fontSize: 'sm',
  '& svg': { color: 'warning', flexShrink: 0, mt: '0.5' },
  '& ul': { listStyle: 'disc', pl: '4', display: 'flex', flexDirection: 'column', gap: '1', mt: '1' },
});

export function DepositScreen({
  actor,
  onSelectCoin,
}: {
  actor: ActorRefFrom<typeof depositMachine>;
  /** The route sends `coin.select` and keeps the choice in the URL (`?coin=`). */
  onSelectCoin: (ticker: string) => void;
}) {
  const loading = useSelector(actor, selectIsLoading);
  const entries = useSelector(actor, selectEntries);
  const entry = useSelector(actor, selectEntry);
  const needsNetworkChoice = useSelector(actor, selectNeedsNetworkChoice);
  const network = useSelector(actor, selectNetwork);
  const showsPrompt = useSelector(actor, selectShowsPrompt);
  const pickingNetwork = useSelector(actor, selectIsPickingNetwork);
  const address = useSelector(actor, selectAddress);
  const canCopy = useSelector(actor, selectCanCopy);
  const ticker = entry?.coin.ticker.toUpperCase() ?? '';

  return (
    <section aria-busy={loading}>
      <PageHeader
        title="Deposit"
        subtitle="Receive crypto at your own address."
        actions={
          <ButtonLink to="/wallets" variant="outline">
            <ArrowLeftIcon width={16} height={16} />
            My Wallets
          </ButtonLink>
        }
      />

      <div className={layout}>
        <Card>
          <h2 className={panelTitle}>Coin and network</h2>
          <div className={column}>
            <SelectField
              label="Cryptocurrency"
              name="coin"
              placeholder={loading ? 'Loading coins…' : 'Choose a coin'}
              disabled={entries.length === 0}
              options={entries.map((option) => ({
                value: option.coin.ticker,
                label: `${option.coin.label} (${option.coin.ticker.toUpperCase()})`,
                image: option.coin.image,
              }))}
              value={entry ? [entry.coin.ticker] : []}
              onValueChange={([value]) => {
                if (value) onSelectCoin(value);
              }}
            />
            {needsNetworkChoice && entry ? (
              <SelectField
                label="Network"
                name="network"
                placeholder="Choose a network"
                options={entry.networks.map((option) => ({ value: option.key, label: option.name, image: option.image }))}
                value={network ? [network.key] : []}
                onValueChange={([value]) => {
                  // Any key the server listed for the coin (an operator's EVM network too); the machine ignores others.
                  if (value) actor.send({ type: 'network.select', network: value });
                }}
              />
            ) : null}
          </div>
          {entry ? (
            // Kept current by the trader's own channel: a deposit credited shows here as the bell announces it.
            <p className={balance} aria-live="polite">
              <span>Your {ticker} balance</span>
              <strong>{formatCrypto(entry.balance, entry.coin.decimal_places, entry.coin.ticker)}</strong>
            </p>
          ) : null}
          {network && address ? (
            <div className={details}>
              <div className={detail}>
                <span className={detailName}>Network:</span>
                <img src={network.image} alt="" width={20} height={20} />
                <span className={strong}>{network.name}</span>
              </div>
              <div className={detail}>
                <span>Confirmations: {network.confirmations}</span>
              </div>
              <div className={detail}>
                <span>Min Deposit: {DEPOSIT_MIN_USD} USD</span>
              </div>
            </div>
          ) : null}
        </Card>

        <div className={column}>
          <Card role="region" aria-label="Deposit address">
            {address ? (
              <DepositAddress address={address} ticker={ticker} canCopy={canCopy} onCopy={() => actor.send({ type: 'address.copy' })} />
            ) : (
              <p className={dashedPlaceholder}>{showsPrompt ? 'Select a cryptocurrency' : pickingNetwork ? `Select the ${ticker} network` : null}</p>
            )}
          </Card>
          {address && network ? (
            <div className={notice} role="note" aria-label="Before you send">
              <ShieldIcon />
              <div>
                <strong>Before you send</strong>
                <ul>
                  <li>
                    Send only {ticker} to this address. Any other coin sent here may be lost for good.
                  </li>
                  <li>Make sure the sender uses the {network.name} network.</li>
                  <li>Deposits may take up to 30 minutes to appear in your wallet.</li>
                  <li>Verify the address before you send: check the first and last characters.</li>
                </ul>
              </div>
            </div>
          ) : null}
        </div>
      </div>
    </section>
  );
}

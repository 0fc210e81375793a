import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { withdrawalMachine } from '../../machines/withdrawal/withdrawal.machine.ts';
import {
  selectAmount,
  selectAmountError,
  selectCanConfirm,
  selectCanRefresh,
  selectCoin,
  selectCoinChoices,
  selectCoinUsdValue,
  selectIsBusy,
  selectIsExpired,
  selectIsLoading,
  selectIsPreviewing,
  selectMode,
  selectNetwork,
  selectNetworkChoices,
  selectPreview,
  selectRecipient,
  selectShowsConfirm,
  selectTicker,
} from '../../machines/withdrawal/withdrawal.selectors.ts';
import { formatCrypto, formatUsd } from '../format/money.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { cardStyle } from '../primitives/Card.tsx';
import { SelectField } from '../primitives/SelectField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { WithdrawNotice } from './WithdrawNotice.tsx';
import { WithdrawPreview } from './WithdrawPreview.tsx';

const layout = css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: '3fr 2fr' }, gap: '6', mt: '6', alignItems: 'start' });
const form = css({ display: 'flex', flexDirection: 'column', gap: '5', minW: '0' });
const balance = css({ fontSize: 'sm', color: 'fg.muted', mt: '-3', fontVariantNumeric: 'tabular-nums' });
const networkLine = css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', '& span': { color: 'fg.muted' } });
const amountField = css({ position: 'relative' });
const toggle = css({ position: 'absolute', top: '0', right: '0', h: '5!', px: '0!', fontSize: 'sm!' });
const status = css({ fontSize: 'sm', color: 'fg.muted' });
const expired = css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap', fontSize: 'sm', color: 'fg.muted' });

/** Withdraw (/wallets/withdraw): every step comes from the withdrawal chart; this only renders it and sends events. */
export function WithdrawScreen({ actor }: { actor: ActorRefFrom<typeof withdrawalMachine> }) {
  const loading = useSelector(actor, selectIsLoading);
  const busy = useSelector(actor, selectIsBusy);
  const choices = useSelector(actor, selectCoinChoices);
  const ticker = useSelector(actor, selectTicker);
  const coin = useSelector(actor, selectCoin);
  const coinUsdValue = useSelector(actor, selectCoinUsdValue);
  const networks = useSelector(actor, selectNetworkChoices);
  const network = useSelector(actor, selectNetwork);
  const recipient = useSelector(actor, selectRecipient);
  const amount = useSelector(actor, selectAmount);
  const mode = useSelector(actor, selectMode);
  const amountError = useSelector(actor, selectAmountError);
  const preview = useSelector(actor, selectPreview);
  const previewing = useSelector(actor, selectIsPreviewing);
  const isExpired = useSelector(actor, selectIsExpired);
  const canRefresh = useSelector(actor, selectCanRefresh);
  const showsConfirm = useSelector(actor, selectShowsConfirm);
  const canConfirm = useSelector(actor, selectCanConfirm);
  const coinTicker = coin?.coin.ticker.toUpperCase() ?? '';
  const unit = mode === 'usd' ? 'USD' : coinTicker || 'Crypto';
  const otherUnit = mode === 'usd' ? coinTicker || 'Crypto' : 'USD';
  const onlyNetwork = coin && coin.networks.length === 1 ? coin.networks[0] : undefined;

  return (
    <section aria-busy={loading || busy}>
      <PageHeader title="Withdraw" subtitle="Send crypto from your wallet to an outside address." />
      <div className={layout}>
        <Form className={`${cardStyle} ${form}`} onSubmit={() => actor.send({ type: 'form.submit' })} aria-label="Withdraw">
          <SelectField
            label="Coin"
            name="ticker"
            placeholder={loading ? 'Loading wallets...' : 'Select a cryptocurrency'}
            options={choices.map(({ entry, usdValue }) => ({
              value: entry.coin.ticker,
              label: `${entry.coin.label} (${entry.coin.ticker.toUpperCase()})`,
              image: entry.coin.image,
              hint: `${formatCrypto(entry.balance, entry.coin.decimal_places, entry.coin.ticker)} · ${formatUsd(usdValue)}`,
            }))}
            value={ticker ? [ticker] : []}
            onValueChange={([value]) => actor.send({ type: 'coin.change', value: value ?? '' })}
            disabled={loading || busy}
          />
          {coin ? (
            <p className={balance}>
              Available: {formatCrypto(coin.balance, coin.coin.decimal_places, coin.coin.ticker)} ({formatUsd(coinUsdValue)})
            </p>
          ) : null}

          {networks.length > 0 ? (
            <SelectField
              label="Network"
              name="network"
              placeholder="Select a network"
              options={networks.map((option) => ({ value: option.key, label: option.name, image: option.image }))}
              value={network ? [network] : []}
              onValueChange={([value]) => actor.send({ type: 'network.change', value: value ?? '' })}
              disabled={busy}
            />
          ) : onlyNetwork ? (
            <p className={networkLine}>
              <span>Network:</span> <img src={onlyNetwork.image} alt="" width={18} height={18} />
              {onlyNetwork.name}
            </p>
          ) : null}

          <TextField
            label="Recipient Address"
            name="recipient"
            placeholder={coin ? `The recipient's ${coinTicker} address` : 'The recipient’s address'}
            value={recipient}
            autoComplete="off"
            spellCheck={false}
            onValueChange={(value) => actor.send({ type: 'recipient.change', value })}
            disabled={loading || busy}
          />

          <div className={amountField}>
            <TextField
              label={`Amount (${unit})`}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={mode === 'usd' ? '0.00' : '0.0'}
              value={amount}
              error={amountError}
              onValueChange={(value) => actor.send({ type: 'amount.change', value })}
              disabled={loading || busy}
            />
            <Button variant="link" size="sm" className={toggle} onClick={() => actor.send({ type: 'mode.toggle' })} disabled={loading || busy}>
              Enter in {otherUnit}
            </Button>
          </div>

          <div aria-live="polite" className={css({ display: 'contents' })}>
            {previewing ? <p className={status}>Calculating the network fee...</p> : null}
            {isExpired ? (
              <div className={expired}>
                <p>The fee preview expired.</p>
                <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'preview.refresh' })} disabled={!canRefresh}>
                  Refresh Preview
                </Button>
              </div>
            ) : null}
            {preview && coin ? <WithdrawPreview preview={preview} places={coin.coin.decimal_places} ticker={coin.coin.ticker} /> : null}
          </div>

          {showsConfirm ? (
            <Button type="submit" size="lg" disabled={!canConfirm}>
              {busy ? 'Processing...' : 'Confirm Withdrawal'}
            </Button>
          ) : null}
        </Form>
        <WithdrawNotice />
      </div>
    </section>
  );
}

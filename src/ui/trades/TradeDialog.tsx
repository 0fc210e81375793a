import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { tradeDialogMachine } from '../../machines/tradeDialog/tradeDialog.machine.ts';
import {
  selectAmount,
  selectAmountError,
  selectCanConfirm,
  selectConfirmLabel,
  selectHint,
  selectIsBusy,
  selectIsOpen,
  selectMethodError,
  selectOffer,
  selectPaymentMethod,
  selectPreview,
} from '../../machines/tradeDialog/tradeDialog.selectors.ts';
import { formatFiat } from '../format/money.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { dialogStyles } from '../primitives/dialogStyles.ts';
import { SelectField } from '../primitives/SelectField.tsx';
import { TextField } from '../primitives/TextField.tsx';

const { backdrop, positioner, title, description, actions } = dialogStyles;
const content = dialogStyles.content({ size: 'lg' });
const grid = css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2', fontSize: 'sm', bg: 'bg.muted', borderRadius: 'lg', p: '3' });
const label = css({ color: 'fg.muted' });
const value = css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', fontWeight: 'medium' });
const methodError = css({ fontSize: 'xs', color: 'danger', mt: '-2' });

/** The Trade Preview dialog; its open state and every step come from the trade dialog chart. */
export function TradeDialog({ actor }: { actor: ActorRefFrom<typeof tradeDialogMachine> }) {
  const open = useSelector(actor, selectIsOpen);
  const busy = useSelector(actor, selectIsBusy);
  const offer = useSelector(actor, selectOffer);
  const amount = useSelector(actor, selectAmount);
  const method = useSelector(actor, selectPaymentMethod);
  const preview = useSelector(actor, selectPreview);
  const canConfirm = useSelector(actor, selectCanConfirm);
  const confirmLabel = useSelector(actor, selectConfirmLabel);
  const hint = useSelector(actor, selectHint);
  const amountError = useSelector(actor, selectAmountError);
  const missingMethod = useSelector(actor, selectMethodError);
  const currency = offer?.currency__code ?? '';
  const ticker = offer?.coin__ticker.toUpperCase() ?? '';

  return (
    <Dialog.Root open={open} onOpenChange={(details) => !details.open && actor.send({ type: 'dialog.close' })} lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop className={backdrop} />
        <Dialog.Positioner className={positioner}>
          <Dialog.Content className={content}>
            <div>
              <Dialog.Title className={title}>Trade Preview</Dialog.Title>
              <Dialog.Description className={description}>Review the trade details before confirming your order</Dialog.Description>
            </div>
            {offer ? (
              <Form onSubmit={() => actor.send({ type: 'order.confirm' })} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
                <TextField
                  label={`Amount (${currency})`}
                  name="amount"
                  inputMode="decimal"
                  value={amount}
                  error={amountError}
                  helperText={hint}
                  onValueChange={(next) => actor.send({ type: 'amount.change', value: next })}
                  disabled={busy}
                  autoFocus
                />
                <SelectField
                  label="Payment method"
                  name="payment_method"
                  placeholder="Select a payment method"
                  options={offer.payment_methods.map((name) => ({ value: name, label: name }))}
                  value={method ? [method] : []}
                  onValueChange={([next]) => actor.send({ type: 'method.change', value: next ?? '' })}
                  disabled={busy}
                  inDialog
                />
                {missingMethod ? <p className={methodError}>{missingMethod}</p> : null}
                {preview ? (
                  <dl className={grid} aria-label="Trade calculation">
                    <dt className={label}>Trading amount</dt>
                    <dd className={value}>
                      {formatFiat(preview.trading_amount)} {currency}
                    </dd>
                    <dt className={label}>In crypto</dt>
                    <dd className={value}>
                      {preview.trading_amount_crypto} {ticker}
                    </dd>
                    <dt className={label}>Fee</dt>
                    <dd className={value}>
                      {formatFiat(preview.fee_local)} {currency} · {preview.fee_crypto} {ticker}
                    </dd>
                    <dt className={label}>Buyer receives</dt>
                    <dd className={value}>
                      {preview.amount_crypto} {ticker} ({formatFiat(preview.amount_local)} {currency})
                    </dd>
                  </dl>
                ) : null}
                <div className={actions}>
                  {busy ? null : (
                    <Button variant="ghost" onClick={() => actor.send({ type: 'dialog.close' })}>
                      Cancel
                    </Button>
                  )}
                  <Button type="submit" variant={offer.offer_type === 'buy' ? 'sell' : 'buy'} disabled={!canConfirm || busy}>
                    {busy ? 'Please wait...' : confirmLabel}
                  </Button>
                </div>
              </Form>
            ) : null}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

import { Checkbox } from '@ark-ui/react/checkbox';
import { RadioGroup } from '@ark-ui/react/radio-group';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { OfferFormField, offerFormMachine } from '../../machines/offerForm/offerForm.machine.ts';
import {
  selectCanSubmit,
  selectCoin,
  selectComponents,
  selectConditionErrors,
  selectCurrency,
  selectIsActive,
  selectIsEditing,
  selectIsLoading,
  selectIsSubmitting,
  selectIsToggling,
  selectValues,
} from '../../machines/offerForm/offerForm.selectors.ts';
import { formatFiat, formatRate } from '../format/money.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { Card } from '../primitives/Card.tsx';
import { ArrowLeftIcon } from '../primitives/icons.tsx';
import { SingleSelectField } from '../primitives/SelectField.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { TextAreaField } from '../primitives/TextAreaField.tsx';
import { TextField, fieldStyles } from '../primitives/TextField.tsx';
import { offerChoices } from './choices.ts';
import { conditionPhrases } from './conditions.ts';
import { PaymentMethodsField } from './PaymentMethodsField.tsx';

const back = css({ display: 'inline-flex', alignItems: 'center', gap: '1', color: 'fg.muted', fontSize: 'sm', _hover: { color: 'fg' } });
const title = css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', mt: '2', letterSpacing: '-0.02em' });
const layout = css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: '3fr 2fr' }, gap: '6', mt: '6', alignItems: 'start' });
const form = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const pair = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' });
const radios = css({ display: 'flex', gap: '3', flexWrap: 'wrap' });
const radio = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  px: '4',
  py: '2.5',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  cursor: 'pointer',
  fontSize: 'sm',
  fontWeight: 'medium',
  '&[data-state=checked][data-value=buy]': { borderColor: 'buy', color: 'buy', bg: 'bg.muted' },
  '&[data-state=checked][data-value=sell]': { borderColor: 'sell', color: 'sell', bg: 'bg.muted' },
  _focusWithin: { outline: '2px solid', outlineColor: 'accent' },
});
const dot = css({
  w: '4',
  h: '4',
  borderRadius: 'full',
  borderWidth: '2px',
  borderColor: 'border',
  '&[data-state=checked]': { borderColor: 'currentColor', bg: 'currentColor', boxShadow: 'inset 0 0 0 2px var(--colors-bg-surface)' },
});
const textarea = css({ minH: '24', py: '2', resize: 'vertical' });
const previewTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' });
const previewRow = css({ display: 'flex', justifyContent: 'space-between', gap: '3', py: '2', borderTopWidth: '1px', borderColor: 'border', fontSize: 'sm' });
const previewLabel = css({ color: 'fg.muted' });
const terms = css({ whiteSpace: 'pre-wrap', wordBreak: 'break-word', textAlign: 'right' });
const section = css({ display: 'flex', flexDirection: 'column', gap: '4', pt: '4', borderTopWidth: '1px', borderColor: 'border' });
const sectionTitle = css({ fontSize: 'md', fontWeight: 'semibold' });
const sectionLead = css({ color: 'fg.muted', fontSize: 'sm', mt: '-2' });
const checkbox = css({ display: 'inline-flex', alignItems: 'center', gap: '2', cursor: 'pointer', fontSize: 'sm', fontWeight: 'medium' });
const checkboxControl = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  w: '5',
  h: '5',
  borderRadius: 'sm',
  borderWidth: '2px',
  borderColor: 'border',
  color: 'accent.fg',
  '&[data-state=checked]': { bg: 'accent', borderColor: 'accent' },
  '&[data-focus-visible]': { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
});
const pauseBox = css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' });

/** The counterparty conditions typed as numbers, each with the chart's problem with what is typed (selectConditionErrors). */
type ConditionField = keyof ReturnType<typeof selectConditionErrors>;

export function OfferFormScreen({ actor }: { actor: ActorRefFrom<typeof offerFormMachine> }) {
  const editing = useSelector(actor, selectIsEditing);
  const loading = useSelector(actor, selectIsLoading);
  const submitting = useSelector(actor, selectIsSubmitting);
  const toggling = useSelector(actor, selectIsToggling);
  const canSubmit = useSelector(actor, selectCanSubmit);
  const values = useSelector(actor, selectValues);
  const components = useSelector(actor, selectComponents);
  const currency = useSelector(actor, selectCurrency);
  const coin = useSelector(actor, selectCoin);
  const isActive = useSelector(actor, selectIsActive);
  const conditionErrors = useSelector(actor, selectConditionErrors, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const change = (name: OfferFormField) => (value: string) => actor.send({ type: 'field.change', name, value });
  /** A field of the form as the chart holds it: its name, its value, and its changes sent as `field.change`. */
  const bind = (name: OfferFormField) => ({ name, value: values[name], onValueChange: change(name) });
  /** A counterparty condition's field, with the chart's problem with what is typed there. */
  const bindCondition = (name: ConditionField) => ({ ...bind(name), error: conditionErrors[name] });
  const code = values.currency.toUpperCase();
  const unit = code ? ` (${code})` : '';
  const choices = useMemo(() => offerChoices(components), [components]);

  return (
    <section aria-busy={loading}>
      <Link to="/offers" className={back}>
        <ArrowLeftIcon width={16} height={16} /> Back to offers
      </Link>
      <h1 className={title}>{editing ? 'Edit Offer' : 'Create New Offer'}</h1>

      <div className={layout}>
        <Card>
          <Form className={form} onSubmit={() => actor.send({ type: 'form.submit' })}>
            <RadioGroup.Root
              value={values.offer_type}
              onValueChange={({ value }) => value && change('offer_type')(value)}
              name="offer_type"
              className={fieldStyles.root}
            >
              <RadioGroup.Label className={fieldStyles.label}>Offer type</RadioGroup.Label>
              <div className={radios}>
                {(['buy', 'sell'] as const).map((type) => (
                  <RadioGroup.Item key={type} value={type} className={radio} data-value={type}>
                    <RadioGroup.ItemControl className={dot} />
                    <RadioGroup.ItemText>{type === 'buy' ? 'I want to Buy' : 'I want to Sell'}</RadioGroup.ItemText>
                    <RadioGroup.ItemHiddenInput />
                  </RadioGroup.Item>
                ))}
              </div>
            </RadioGroup.Root>

            <div className={pair}>
              <SingleSelectField label="Cryptocurrency" placeholder="Select a coin" options={choices.coins} {...bind('coin')} />
              <SingleSelectField label="Fiat currency" placeholder="Select a currency" options={choices.currencies} {...bind('currency')} />
            </div>

            <div className={pair}>
              <TextField label={`Minimum amount${unit}`} inputMode="decimal" required {...bind('min_amount')} />
              <TextField label={`Maximum amount${unit}`} inputMode="decimal" required {...bind('max_amount')} />
            </div>

            <TextField
              label="USD Rate"
              inputMode="decimal"
              helperText={currency ? `Market Rate: 1.00 USD ≈ ${formatRate(currency.fx_rate)} ${currency.code.toUpperCase()}` : undefined}
              required
              {...bind('rate')}
            />

            <PaymentMethodsField
              placeholder="Select payment methods"
              methods={choices.methods}
              value={values.payment_methods}
              onValueChange={(value) => actor.send({ type: 'methods.change', value })}
            />

            <TextAreaField label="Terms (optional)" className={textarea} maxLength={2000} {...bind('terms')} />

            <fieldset className={section} aria-describedby="offer-conditions-lead">
              <legend className={sectionTitle}>Who can trade with you</legend>
              <p id="offer-conditions-lead" className={sectionLead}>
                Takers who do not meet these cannot open a trade on this offer. Leave a field blank for no condition.
              </p>
              <div className={pair}>
                <TextField label="Minimum completed trades (optional)" inputMode="numeric" {...bindCondition('min_completed_trades')} />
                <TextField label="Minimum account age in days (optional)" inputMode="numeric" {...bindCondition('min_account_days')} />
              </div>
              <Checkbox.Root
                className={checkbox}
                name="require_two_factor"
                checked={values.require_two_factor}
                onCheckedChange={({ checked }) => actor.send({ type: 'twoFactor.change', value: checked === true })}
              >
                <Checkbox.Control className={checkboxControl}>
                  <Checkbox.Indicator>✓</Checkbox.Indicator>
                </Checkbox.Control>
                <Checkbox.Label>Takers must have two-factor authentication on</Checkbox.Label>
                <Checkbox.HiddenInput />
              </Checkbox.Root>
              <TextField
                label="Open trades at once"
                inputMode="numeric"
                helperText="From 1 to 20: how many pending trades this offer takes at the same time."
                required
                {...bindCondition('max_open_trades')}
              />
            </fieldset>

            <Button type="submit" size="lg" disabled={!canSubmit || submitting}>
              {submitting ? 'Please Wait...' : editing ? 'Edit Offer' : 'Publish Offer'}
            </Button>
          </Form>
        </Card>

        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <Card aria-label="Offer preview">
            <h2 className={previewTitle}>Preview</h2>
            <PreviewRow label="Type">
              <Badge tone={values.offer_type} data-type={values.offer_type}>
                {values.offer_type}
              </Badge>
            </PreviewRow>
            <PreviewRow label="Coin">{coin ? `${coin.label} (${coin.ticker.toUpperCase()})` : '—'}</PreviewRow>
            <PreviewRow label="Rate">{values.rate && code ? `1.00 USD = ${values.rate} ${code}` : '—'}</PreviewRow>
            <PreviewRow label="Amount range">{previewRange(values, code)}</PreviewRow>
            <PreviewRow label="Payment methods">{values.payment_methods.length ? values.payment_methods.join(', ') : 'None selected'}</PreviewRow>
            <PreviewRow label="Currency">{code || '—'}</PreviewRow>
            <PreviewRow label="Who can trade">{previewTakers(values)}</PreviewRow>
            <PreviewRow label="Open trades at once">{conditionErrors.max_open_trades ? '—' : values.max_open_trades.trim()}</PreviewRow>
            <PreviewRow label="Terms" className={terms}>
              {values.terms.trim() || '—'}
            </PreviewRow>
          </Card>

          {editing && isActive !== null ? (
            <Card>
              <div className={pauseBox}>
                <div>
                  <strong>{isActive ? 'This offer is live' : 'This offer is paused'}</strong>
                  <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
                    {isActive ? 'Traders can find it and trade on it.' : 'It is hidden from Browse Offers and cannot be traded.'}
                  </p>
                </div>
                <Button variant="outline" onClick={() => actor.send({ type: 'offer.toggle' })} disabled={toggling || submitting}>
                  {toggling ? 'Please Wait...' : isActive ? 'Pause offer' : 'Resume offer'}
                </Button>
              </div>
            </Card>
          ) : null}
        </div>
      </div>
    </section>
  );
}

/** One line of the preview: what it is, and what the form holds for it so far. */
function PreviewRow({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={previewRow}>
      <span className={previewLabel}>{label}</span>
      <span className={className}>{children}</span>
    </div>
  );
}

/** The preview's amount range, once both amounts are numbers. */
function previewRange(values: { min_amount: string; max_amount: string }, code: string): string {
  const amount = /^\d+(\.\d+)?$/;
  return amount.test(values.min_amount) && amount.test(values.max_amount)
    ? `${formatFiat(values.min_amount)} - ${formatFiat(values.max_amount)} ${code}`
    : '—';
}

/** The preview's line of conditions, from what is typed so far: numbers that are not whole yet show as none. */
function previewTakers(values: { min_completed_trades: string; min_account_days: string; require_two_factor: boolean }): string {
  const whole = (text: string) => (/^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : 0);
  const phrases = conditionPhrases({
    min_completed_trades: whole(values.min_completed_trades),
    min_account_days: whole(values.min_account_days),
    require_two_factor: values.require_two_factor,
  });
  return phrases.length ? phrases.join(' · ') : 'Anyone';
}

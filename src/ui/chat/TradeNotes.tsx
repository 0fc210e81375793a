import { Collapsible } from '@ark-ui/react/collapsible';
import { Field } from '@ark-ui/react/field';
import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import {
  selectPayerAccount,
  selectPayerAccountError,
  selectPayerLine,
  selectResolution,
  selectReview,
  selectShowsPayerField,
  type ConversationRef,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { ChevronDownIcon } from '../primitives/icons.tsx';
import { fieldStyles } from '../primitives/TextField.tsx';

/** The hint under "Paid from (optional)": what a seller needs to match the money against. */
export const PAYER_HINT = 'Name on the account and where: J. Smith, Revolut';
/** Beside "Release Crypto": a payment from someone else's account is the classic sign of triangulation fraud. */
export const PAYER_WARNING =
  'Check that the money came from an account in this name before releasing. A payment from someone else (a third party) is a sign of fraud.';
export const PAYER_UNSTATED = 'The buyer did not say which account they paid from';

const note = css({ display: 'flex', flexDirection: 'column', gap: '1', px: '3', py: '2', borderRadius: 'lg', fontSize: 'sm', borderWidth: '1px' });
const review = css({ bg: 'warning.subtle', borderColor: 'border', color: 'fg' });
const payer = css({ bg: 'bg.muted', borderColor: 'border', color: 'fg' });
const heading = css({ fontWeight: 'semibold', display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'baseline' });
const muted = css({ color: 'fg.muted', fontSize: 'xs' });
const waited = css({ color: 'warning', fontSize: 'xs', fontWeight: 'medium' });
// The settlement is a line of the trade's summary: the outcome, and the resolution under "Resolution" (the chat's
// last system message quotes it too), so a finished trade's chat keeps its height for the messages.
const settledLine = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  columnGap: '3',
  rowGap: '1',
  px: '2.5',
  py: '1',
  borderRadius: 'md',
  bg: 'accent.subtle',
  color: 'fg',
  fontSize: 'sm',
});
const settledHeading = css({ fontWeight: 'semibold' });
const resolutionText = css({ flexBasis: 'full', whiteSpace: 'pre-wrap', wordBreak: 'break-word', pb: '1' });
const showMore = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  fontSize: 'xs',
  fontWeight: 'medium',
  color: 'accent',
  cursor: 'pointer',
  borderRadius: 'sm',
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
  '& svg': { transition: 'rotate 150ms' },
  '&[data-state=open] svg': { rotate: '180deg' },
});

/** "Under review" while a moderator has the dispute: the time waited (the chart's minute clock), no actions. */
export function ReviewBanner({ actor }: { actor: ConversationRef }) {
  const underReview = useSelector(actor, selectReview);
  if (!underReview) return null;
  return (
    <div role="status" aria-label="Under review" className={`${note} ${review}`} data-review>
      <p className={heading}>
        Under review
        {underReview.waited ? <span className={waited}>waiting {underReview.waited}</span> : null}
      </p>
      <p className={muted}>A moderator will look at the payment and the chat and settle the trade. The trade is frozen meanwhile.</p>
    </div>
  );
}

/**
 * Once a moderator settled the dispute: which way the coins went, and the resolution as written under "Resolution".
 * A line of the trade's summary (TradeSummary.tsx); `className` places it there.
 */
export function ResolutionPanel({ actor, className }: { actor: ConversationRef; className?: string }) {
  const resolution = useSelector(actor, selectResolution);
  if (!resolution) return null;
  return (
    <section aria-label="Dispute settled" className={className} data-resolution={resolution.outcome}>
      <Collapsible.Root className={settledLine}>
        <p className={settledHeading}>
          {resolution.outcome === 'release'
            ? 'Settled by a moderator: coins released to the buyer'
            : 'Settled by a moderator: coins refunded to the seller'}
        </p>
        <Collapsible.Trigger className={showMore}>
          Resolution
          <ChevronDownIcon width={14} height={14} />
        </Collapsible.Trigger>
        <Collapsible.Content className={resolutionText}>{resolution.text}</Collapsible.Content>
      </Collapsible.Root>
    </section>
  );
}

/** The seller's view once paid: the account the buyer says they paid from, and what to check before releasing. */
export function PayerLine({ actor }: { actor: ConversationRef }) {
  const line = useSelector(actor, selectPayerLine);
  if (!line) return null;
  return (
    <section aria-label="Paying account" className={`${note} ${payer}`} data-payer-account={line.account ?? ''}>
      {line.account ? (
        <p>
          <span className={css({ fontWeight: 'semibold' })}>Paid from:</span> {line.account}
        </p>
      ) : (
        <p>{PAYER_UNSTATED}</p>
      )}
      <p className={muted}>{PAYER_WARNING}</p>
    </section>
  );
}

/** The buyer's optional "Paid from" before "Mark Paid"; it goes with the same single click. */
export function PayerField({ actor }: { actor: ConversationRef }) {
  const shown = useSelector(actor, selectShowsPayerField);
  const value = useSelector(actor, selectPayerAccount);
  const problem = useSelector(actor, selectPayerAccountError);
  if (!shown) return null;
  return (
    <Field.Root className={fieldStyles.root} invalid={Boolean(problem)}>
      <Field.Label className={fieldStyles.label}>Paid from (optional)</Field.Label>
      <Field.Input
        name="payer_account"
        autoComplete="off"
        className={fieldStyles.input}
        value={value}
        onChange={(event) => actor.send({ type: 'payer.change', value: event.currentTarget.value })}
      />
      {problem ? null : <Field.HelperText className={fieldStyles.helper}>{PAYER_HINT}</Field.HelperText>}
      <Field.ErrorText className={fieldStyles.error}>{problem}</Field.ErrorText>
    </Field.Root>
  );
}

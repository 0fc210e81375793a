import { Collapsible } from '@ark-ui/react/collapsible';
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import type { TradeRole } from '../../../contracts/index.ts';
import {
  selectPaidFrom,
  selectPaymentWindow,
  selectResolution,
  selectRole,
  selectTradeSummary,
  type ConversationRef,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { fiatAmount, formatCrypto, formatRateLine } from '../format/money.ts';
import { ChevronDownIcon, ClockIcon } from '../primitives/icons.tsx';
import { WIDE_SCREEN, useMediaQuery } from '../primitives/useMediaQuery.ts';
import { ResolutionPanel } from './TradeNotes.tsx';

/** Whose side of the trade this screen is, word for word. */
const ROLE_TEXT: Record<TradeRole, string> = { buyer: 'You are buying', seller: 'You are selling' };
/** The payment window once it ran out: the server's sweep cancels the trade shortly after. */
const TIME_UP = 'The time to pay has run out';

/** The countdown as the summary says it: "14:32 left to pay" (the buyer), "… left for the buyer to pay" (the seller). */
const timeToPay = (left: string | null, role: TradeRole) =>
  left === null ? TIME_UP : role === 'buyer' ? `${left} left to pay` : `${left} left for the buyer to pay`;

// A box of its own on a phone; from md up, plain lines under the partner's name.
const root = css({
  gridArea: 'summary',
  minW: '0',
  fontSize: 'sm',
  borderWidth: { base: '1px', md: '0' },
  borderColor: 'border',
  borderRadius: 'lg',
  bg: { base: 'bg.canvas', md: 'transparent' },
});
// A phone's one line: the coin amount, the fiat total and the countdown; a tap opens the rest.
const toggle = css({
  display: { base: 'flex', md: 'none' },
  alignItems: 'center',
  gap: '2',
  w: 'full',
  px: '3',
  py: '2',
  textAlign: 'left',
  fontWeight: 'medium',
  cursor: 'pointer',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  // The chevron (the button's own icon, not the clock in its line) turns over when open.
  '& > svg': { flexShrink: '0', transition: 'rotate 150ms' },
  '&[data-state=open] > svg': { rotate: '180deg' },
});
// The time never gives way: the amounts are cut short first on a narrow phone.
const line = css({ flex: '1', minW: '0', display: 'flex', gap: '1' });
const lineTerms = css({ minW: '0', truncate: true });
const lineSettled = css({ flexShrink: '0', whiteSpace: 'nowrap', color: 'accent' });
const srOnly = css({ srOnly: true });
// A grid of label and value on a phone; one wrapping row of them from md up.
const details = css({
  display: { base: 'grid', md: 'flex' },
  gridTemplateColumns: 'auto 1fr',
  flexWrap: 'wrap',
  alignItems: { base: 'baseline', md: 'center' },
  columnGap: { base: '3', md: '4' },
  rowGap: { base: '1.5', md: '0.5' },
  px: { base: '3', md: '0' },
  pt: { base: '1', md: '0' },
  pb: { base: '3', md: '0' },
  '&[hidden]': { display: 'none' },
});
const role = css({
  gridColumn: '1 / -1',
  justifySelf: 'start',
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  fontSize: 'xs',
  fontWeight: 'semibold',
  bg: 'accent.subtle',
  color: 'accent',
});
const terms = css({ display: 'contents' });
const settlement = css({ gridColumn: '1 / -1', minW: '0' });
const term = css({ display: { base: 'contents', md: 'flex' }, alignItems: 'baseline', gap: '1.5', minW: '0' });
const label = css({ color: 'fg.muted', fontSize: 'xs' });
const value = css({ fontWeight: 'medium', wordBreak: 'break-word' });
// The time left, in the folded line and among the terms alike.
const countdownLook = {
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  color: 'warning',
  fontVariantNumeric: 'tabular-nums',
  '&[data-over]': { color: 'danger' },
  '& svg': { flexShrink: '0' },
} as const;
const countdown = css(countdownLook);
const lineTime = css(countdownLook, { flexShrink: '0', whiteSpace: 'nowrap' });

function Term({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className={term}>
      <dt className={label}>{name}</dt>
      <dd className={value}>{children}</dd>
    </div>
  );
}

/**
 * The trade at a glance under the partner's name: this trader's side, the coin and its amount, the fiat total, the
 * rate, the payment method, while the buyer has yet to pay the time left (the chart's clock), once paid the account
 * the buyer paid from, and a moderator's settlement. On a phone it is one line (amount · total · time) that a tap
 * opens; from md up it is always open. The terms show once loaded; without them, only a settlement does.
 */
export function TradeSummary({ actor }: { actor: ConversationRef }) {
  const summary = useSelector(actor, selectTradeSummary);
  const side = useSelector(actor, selectRole);
  const payWindow = useSelector(actor, selectPaymentWindow);
  const paidFrom = useSelector(actor, selectPaidFrom);
  const settled = useSelector(actor, selectResolution) !== null;
  const wide = useMediaQuery(WIDE_SCREEN);
  const [expanded, setExpanded] = useState(false);
  if (!summary && !settled) return null;

  // Each side reads its own amount: the buyer what they receive, the seller what they put in escrow (the fee with it).
  const crypto = summary
    ? formatCrypto(side === 'seller' ? summary.escrow_crypto : summary.amount_crypto, summary.coin__decimal_places, summary.coin__ticker)
    : '';
  const fiat = summary ? fiatAmount(summary.trading_amount, summary.currency__code) : '';
  const over = payWindow?.left === null ? '' : undefined;
  return (
    <section aria-label="Trade summary" className={root} data-role={side}>
      <Collapsible.Root open={wide || expanded} onOpenChange={({ open }) => setExpanded(open)}>
        <Collapsible.Trigger className={toggle}>
          <span className={line}>
            <span className={lineTerms}>{summary ? `${crypto} · ${fiat}` : 'Dispute settled'}</span>{' '}
            {payWindow ? (
              <span className={lineTime} data-over={over}>
                {'· '}
                <ClockIcon width={13} height={13} />
                {payWindow.left === null ? 'time is up' : payWindow.left}
                {payWindow.left === null ? null : <span className={srOnly}> left</span>}
              </span>
            ) : null}
            {settled && summary ? <span className={lineSettled}>· settled</span> : null}
          </span>
          <ChevronDownIcon width={16} height={16} />
        </Collapsible.Trigger>
        <Collapsible.Content className={details}>
          <p className={role} data-role={side}>
            {ROLE_TEXT[side]}
          </p>
          {summary ? (
            <dl className={terms}>
              <Term name={side === 'seller' ? 'In escrow' : 'You receive'}>{crypto}</Term>
              <Term name="Total">{fiat}</Term>
              <Term name="Rate">{formatRateLine(summary.rate, summary.currency__code)}</Term>
              <Term name="Payment method">{summary.payment_method}</Term>
              {payWindow ? (
                <Term name="Time to pay">
                  <span className={countdown} data-countdown data-over={over} role="timer">
                    <ClockIcon width={14} height={14} />
                    {timeToPay(payWindow.left, side)}
                  </span>
                </Term>
              ) : null}
              {paidFrom ? <Term name="Paid from">{paidFrom}</Term> : null}
            </dl>
          ) : null}
          <ResolutionPanel actor={actor} className={settlement} />
        </Collapsible.Content>
      </Collapsible.Root>
    </section>
  );
}

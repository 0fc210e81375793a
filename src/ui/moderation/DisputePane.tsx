import { useSelector } from '@xstate/react';
import { css, cx } from 'styled-system/css';
import { MODERATOR_SENDER } from '../../../contracts/index.ts';
import {
  selectCanSend,
  selectDetail,
  selectDetailWaiting,
  selectDraft,
  selectDraftError,
  selectIsSending,
  selectIsSettled,
  selectMessageViews,
  selectSettlementButtons,
} from '../../machines/moderationDesk/moderationDesk.selectors.ts';
import { BackButton } from '../chat/BackButton.tsx';
import { MessageComposer } from '../chat/MessageComposer.tsx';
import { MessageList } from '../chat/MessageList.tsx';
import { fiatAmount, formatRateLine } from '../format/money.ts';
import { Button } from '../primitives/Button.tsx';
import { callout, factList } from '../primitives/boxes.ts';
import { Badge, StatusBadge } from '../primitives/StatusBadge.tsx';
import { cryptoAmount, formatMoment, outcomeText } from './format.ts';
import { Parties } from './Parties.tsx';
import { ResolveDialog } from './ResolveDialog.tsx';
import type { DeskRef } from './types.ts';

const pane = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', lg: 'minmax(17rem, 2fr) 3fr' },
  gridTemplateRows: { base: 'auto', lg: 'minmax(0, 1fr)' },
  flex: '1',
  minH: '0',
});
const factsColumn = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
  p: '4',
  overflowY: { lg: 'auto' },
  borderBottomWidth: { base: '1px', lg: '0' },
  borderRightWidth: { base: '0', lg: '1px' },
  borderColor: 'border',
});
const chatColumn = css({ display: 'flex', flexDirection: 'column', minH: '0', h: { base: '34rem', lg: 'auto' } });
const header = css({ display: 'flex', alignItems: 'center', gap: '2' });
const badges = css({ display: 'flex', flexWrap: 'wrap', gap: '1.5' });
const title = css({ fontWeight: 'semibold', fontSize: 'lg', flex: '1', minW: '0', overflowWrap: 'anywhere' });
const facts = cx(factList, css({ gridTemplateColumns: 'auto 1fr', rowGap: '1.5' }));
const figure = css({ fontVariantNumeric: 'tabular-nums', wordBreak: 'break-word' });
const payer = cx(callout({ tone: 'accent' }), css({ p: '3', '& strong': { display: 'block', fontSize: 'md', wordBreak: 'break-word' } }));
const reasonBox = css({ fontSize: 'sm', '& p': { whiteSpace: 'pre-wrap', wordBreak: 'break-word', mt: '1' } });
const label = css({ fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: '0.04em' });
const settleRow = css({ display: 'flex', flexWrap: 'wrap', gap: '2' });
// On a wide screen the facts scroll in their column: the settlement stays in view at its foot. Sticky insets
// count from inside the column's padding, so the foot reaches down over it (its 1rem) rather than float above it.
const settleFoot = css({
  position: { lg: 'sticky' },
  bottom: '-1rem',
  mt: 'auto',
  mx: '-4',
  mb: '-4',
  p: '4',
  bg: 'bg.surface',
  borderTopWidth: '1px',
  borderColor: 'border',
});
const settledBox = css({
  p: '3',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border',
  bg: 'success.subtle',
  fontSize: 'sm',
  '&[data-outcome=refund]': { bg: 'bg.muted' },
  '& p': { whiteSpace: 'pre-wrap', wordBreak: 'break-word', mt: '1' },
});
const bubble = css({
  maxW: '85%',
  alignSelf: 'flex-start',
  bg: 'bg.muted',
  color: 'fg',
  '&[data-from=seller]': { alignSelf: 'flex-end', borderBottomRightRadius: 'sm' },
  '&[data-from=buyer], &[data-from=other]': { borderBottomLeftRadius: 'sm' },
  '&[data-from=moderator]': {
    alignSelf: 'center',
    maxW: '90%',
    bg: 'premium',
    color: 'white',
    borderWidth: '1px',
    borderColor: 'premium',
  },
});
const meta = css({ display: 'flex', gap: '2', fontSize: 'xs', opacity: 0.85, mb: '0.5' });
const sender = css({ fontWeight: 'semibold' });
const footer = css({ display: 'flex', flexDirection: 'column', gap: '2', px: '4', py: '3', borderTopWidth: '1px', borderColor: 'border' });
const closedNote = css({ fontSize: 'xs', color: 'fg.muted' });

/** Who a message is from, as its label reads: the moderator's and the parties' with their role. */
const senderLabel = (from: string, name: string | null) =>
  from === 'moderator' ? MODERATOR_SENDER : from === 'buyer' || from === 'seller' ? `@${name} · ${from}` : `@${name}`;

/** The right column: one dispute's facts, its settlement, and its whole chat, as the desk's chart has them. */
export function DisputePane({ actor, onBack }: { actor: DeskRef; onBack: () => void }) {
  const detail = useSelector(actor, selectDetail)!;
  const waiting = useSelector(actor, selectDetailWaiting);
  const settledTrade = useSelector(actor, selectIsSettled);
  const buttons = useSelector(actor, selectSettlementButtons);
  const messages = useSelector(actor, selectMessageViews);
  const ticker = detail.coin__ticker;

  return (
    <article
      aria-label={`Dispute between ${detail.buyer} and ${detail.seller}`}
      className={pane}
      data-channel={detail.channel}
      data-status={detail.status}
      data-settled={settledTrade}
    >
      <section className={factsColumn} aria-label="Trade facts">
        <header className={header}>
          <BackButton label="Back to disputes" onBack={onBack} />
          <h2 className={title}>
            <Parties buyer={detail.buyer} seller={detail.seller} />
          </h2>
        </header>
        <div className={badges}>
          <StatusBadge status={detail.status} />
          {settledTrade ? null : <Badge tone="warning">{waiting}</Badge>}
        </div>

        <dl className={facts}>
          <dt>Amount</dt>
          <dd className={figure}>
            {cryptoAmount(detail.trading_amount_crypto, ticker)} · {fiatAmount(detail.trading_amount, detail.currency__code)}
          </dd>
          <dt>Fee</dt>
          <dd className={figure}>{cryptoAmount(detail.fee_crypto, ticker)}</dd>
          <dt>Buyer receives</dt>
          <dd className={figure}>{cryptoAmount(detail.amount_crypto, ticker)}</dd>
          <dt>Method</dt>
          <dd>{detail.payment_method}</dd>
          <dt>Rate</dt>
          <dd className={figure}>{formatRateLine(detail.rate, detail.currency__code)}</dd>
          <dt>Opened</dt>
          <dd>{formatMoment(detail.created)}</dd>
          <dt>Payment window</dt>
          <dd>
            {detail.payment_window_minutes} min, due {formatMoment(detail.payment_due)}
          </dd>
          <dt>Marked paid</dt>
          <dd>{detail.paid_at ? `by ${detail.buyer}, ${formatMoment(detail.paid_at)}` : 'Not marked paid'}</dd>
          <dt>Disputed</dt>
          <dd>
            by {detail.disputed_by}, {formatMoment(detail.disputed_at)}
          </dd>
        </dl>

        <div className={payer} data-payer-account>
          <span className={label}>Paid from (as the buyer stated)</span>
          <strong>{detail.payer_account ?? 'Not stated'}</strong>
        </div>

        <div className={reasonBox}>
          <span className={label}>Reason</span>
          <p>{detail.reason}</p>
        </div>

        <div className={settleFoot}>
          {detail.resolution ? (
            <div className={settledBox} role="status" data-outcome={detail.resolution.outcome}>
              <strong>
                Settled: {outcomeText[detail.resolution.outcome]} · {formatMoment(detail.resolution.resolved_at)}
              </strong>
              <p>{detail.resolution.text}</p>
            </div>
          ) : settledTrade ? (
            <p className={closedNote} role="status">
              This trade is {detail.status}: there is nothing to settle.
            </p>
          ) : (
            <div className={settleRow} role="group" aria-label="Settle the dispute">
              {buttons.map((button) => (
                <Button
                  key={button.outcome}
                  variant={button.outcome === 'release' ? 'buy' : 'destructive'}
                  disabled={!button.enabled}
                  data-outcome={button.outcome}
                  onClick={() => actor.send(button.event)}
                >
                  {button.label}
                </Button>
              ))}
            </div>
          )}
        </div>
      </section>

      <section className={chatColumn} aria-label="Chat">
        <MessageList
          messages={messages}
          bubble={bubble}
          meta={(message) => (
            <span className={meta}>
              <span className={sender}>{senderLabel(message.from, message.sender)}</span>
              <time dateTime={message.created}>{formatMoment(message.created)}</time>
            </span>
          )}
        />
        <div className={footer}>
          {settledTrade ? (
            <p className={closedNote}>The chat is closed: the trade is {detail.status}.</p>
          ) : (
            <MessageComposer
              label="Message as Moderator"
              placeholder="Write to both traders as Moderator…"
              actor={actor}
              read={{ selectDraft, selectDraftError, selectCanSend, selectIsSending }}
            />
          )}
        </div>
      </section>

      <ResolveDialog actor={actor} />
    </article>
  );
}

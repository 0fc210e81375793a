import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { DateTime } from 'luxon';
import { css, cx } from 'styled-system/css';
import {
  initialOf,
  selectActionButtons,
  selectCanSend,
  selectCanWrite,
  selectConversation,
  selectDraft,
  selectDraftError,
  selectIsLoadingMessages,
  selectIsSending,
  selectMessageViews,
  selectTypingLine,
  type ConversationRef,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { ShieldIcon } from '../primitives/icons.tsx';
import { Badge, StatusBadge } from '../primitives/StatusBadge.tsx';
import { BackButton } from './BackButton.tsx';
import { DisputeDialog, ReleaseDialog } from './ChatDialogs.tsx';
import { avatar } from './ConversationList.tsx';
import { MessageComposer } from './MessageComposer.tsx';
import { MessageList } from './MessageList.tsx';
import { RatingPanel } from './RatingPanel.tsx';
import { PayerField, PayerLine, ReviewBanner } from './TradeNotes.tsx';
import { TradeSummary } from './TradeSummary.tsx';

/** The reminder under the message input, word for word. */
export const SECURITY_REMINDER = 'communicate only within this chat; payments must be marked as paid before coins are released';

/** A message's time, e.g. "Mar 05, 02:07 PM". */
export const formatMessageTime = (iso: string) => DateTime.fromISO(iso).toFormat('LLL dd, hh:mm a');

// The partner on the first line, the trade's summary under it: beside the avatar from md up, the width of the
// header on a phone (where it folds to one line).
const header = css({
  display: 'grid',
  gridTemplateColumns: { base: 'auto auto minmax(0, 1fr) auto', md: 'auto minmax(0, 1fr) auto' },
  gridTemplateAreas: {
    base: '"back avatar name badges" "summary summary summary summary"',
    md: '"avatar name badges" "avatar summary summary"',
  },
  alignItems: 'center',
  columnGap: '3',
  rowGap: { base: '2', md: '1' },
  px: '4',
  py: '3',
  borderBottomWidth: '1px',
  borderColor: 'border',
});
const backCell = css({ gridArea: 'back', display: { base: 'flex', md: 'none' } });
const avatarCell = css({ gridArea: 'avatar' });
const nameCell = css({ gridArea: 'name', display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: '2', minW: '0' });
const title = css({ fontWeight: 'semibold', fontSize: 'md', truncate: true, minW: '0' });
const profileLink = css({ color: 'inherit', _hover: { textDecoration: 'underline' }, _focusVisible: { outline: '2px solid', outlineColor: 'accent' } });
const online = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  fontSize: 'xs',
  color: 'success',
  _before: { content: '""', w: '2', h: '2', borderRadius: 'full', bg: 'success' },
});
const bubble = css({
  maxW: '80%',
  '&[data-from=own]': { alignSelf: 'flex-end', bg: 'accent', color: 'accent.fg', borderBottomRightRadius: 'sm' },
  '&[data-from=partner]': { alignSelf: 'flex-start', bg: 'bg.muted', color: 'fg', borderBottomLeftRadius: 'sm' },
  // Neither party: the platform's voice, outlined in the accent so it is never taken for the partner.
  '&[data-from=moderator]': {
    alignSelf: 'flex-start',
    bg: 'accent.subtle',
    color: 'fg',
    borderWidth: '1px',
    borderColor: 'accent',
    borderBottomLeftRadius: 'sm',
  },
});
const meta = css({
  display: 'flex',
  gap: '2',
  fontSize: 'xs',
  opacity: 0.8,
  mb: '0.5',
  '[data-from=own] &': { justifyContent: 'flex-end' },
});
const sender = css({ fontWeight: 'semibold' });
const moderatorBadge = css({
  display: 'inline-flex',
  alignItems: 'center',
  px: '1.5',
  borderRadius: 'sm',
  bg: 'accent',
  color: 'accent.fg',
  fontSize: 'xs',
  lineHeight: '1.4',
  fontWeight: 'semibold',
});
const typing = css({ px: '4', minH: '5', fontSize: 'xs', color: 'fg.muted', fontStyle: 'italic' });
const footer = css({ display: 'flex', flexDirection: 'column', gap: '2', px: '4', py: '3', borderTopWidth: '1px', borderColor: 'border' });
const actionRow = css({ display: 'flex', flexWrap: 'wrap', gap: '2', _empty: { display: 'none' } });
const reminder = css({ display: 'flex', alignItems: 'center', gap: '1.5', fontSize: 'xs', color: 'fg.muted', '& svg': { flexShrink: '0' } });
// On a phone the two badges stack rather than squeeze the partner's name.
const badges = css({ gridArea: 'badges', display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: '1.5', minW: '0' });

/** The trader's own step stands out, a dispute warns; any other action (Cancel Trade) is outlined. */
const variants: Partial<Record<string, 'buy' | 'destructive'>> = { mark_paid: 'buy', raise_dispute: 'destructive', release_coin: 'buy' };

/** The right column: one trade's conversation, as its chart (tradeConversation) has it. */
export function ConversationPane({ actor, onBack }: { actor: ConversationRef; onBack: () => void }) {
  const conversation = useSelector(actor, selectConversation);
  const messages = useSelector(actor, selectMessageViews);
  const loading = useSelector(actor, selectIsLoadingMessages);
  const typingLine = useSelector(actor, selectTypingLine);
  const buttons = useSelector(actor, selectActionButtons);
  const canWrite = useSelector(actor, selectCanWrite);

  return (
    <article
      aria-label={`Conversation with ${conversation.partner}`}
      className={css({ display: 'flex', flexDirection: 'column', flex: '1', minH: '0' })}
      data-channel={conversation.channel}
      data-status={conversation.status}
      data-buyer-paid={conversation.buyer_paid}
      data-dispute-raised={conversation.dispute_raised}
    >
      <header className={header}>
        <div className={backCell}>
          <BackButton label="Back to conversations" onBack={onBack} />
        </div>
        <span className={cx(avatar, avatarCell)} aria-hidden="true">
          {initialOf(conversation.partner)}
        </span>
        <div className={nameCell}>
          <h2 className={title}>
            <Link to="/traders/$username" params={{ username: conversation.partner }} className={profileLink}>
              {conversation.partner}
            </Link>
          </h2>
          {conversation.online ? (
            <span className={online} data-online>
              Online
            </span>
          ) : null}
        </div>
        <div className={badges}>
          {conversation.dispute_raised && conversation.status === 'pending' ? (
            <Badge tone="danger" data-disputed>
              Under dispute
            </Badge>
          ) : null}
          <StatusBadge status={conversation.status} />
        </div>
        <TradeSummary actor={actor} />
      </header>

      <MessageList
        messages={messages}
        loading={loading}
        bubble={bubble}
        marks={(message) => ({ 'data-own': message.from === 'own', 'data-system': message.from === 'system' })}
        meta={(message) => (
          <span className={meta}>
            {message.from === 'partner' ? <span className={sender}>@{message.sender}</span> : null}
            {message.from === 'moderator' ? <span className={moderatorBadge}>Moderator</span> : null}
            <time dateTime={message.created}>{formatMessageTime(message.created)}</time>
          </span>
        )}
      />

      {/* Nobody types in a finished trade's chat: its line gives its room to the messages. */}
      {canWrite ? (
        <p className={typing} aria-live="polite">
          {typingLine}
        </p>
      ) : null}

      <div className={footer}>
        <ReviewBanner actor={actor} />
        <RatingPanel actor={actor} />
        <PayerLine actor={actor} />
        <PayerField actor={actor} />
        <div className={actionRow} role="group" aria-label="Trade actions">
          {buttons.map((button) => (
            <Button
              key={button.action}
              size="sm"
              variant={variants[button.action] ?? 'outline'}
              disabled={!button.enabled}
              aria-busy={button.busy}
              data-action={button.action}
              onClick={() => actor.send(button.event)}
            >
              {button.busy ? 'Please wait...' : button.label}
            </Button>
          ))}
        </div>
        {canWrite ? (
          <MessageComposer label="Message" placeholder="Type a message…" actor={actor} read={{ selectDraft, selectDraftError, selectCanSend, selectIsSending }} />
        ) : null}
        <p className={reminder}>
          <ShieldIcon width={14} height={14} />
          {SECURITY_REMINDER}
        </p>
      </div>

      <ReleaseDialog actor={actor} />
      <DisputeDialog actor={actor} />
    </article>
  );
}

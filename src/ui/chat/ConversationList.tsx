import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css, cx } from 'styled-system/css';
import type { ConversationFilter, tradeChatMachine } from '../../machines/tradeChat/tradeChat.machine.ts';
import {
  initialOf,
  previewOf,
  selectFilter,
  selectIsFilteredEmpty,
  selectIsListEmpty,
  selectIsListLoading,
  selectSearch,
  selectSelectedChannel,
  selectVisibleConversations,
  stageWordsOf,
  unreadLabelOf,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { fiatAmount, formatCrypto } from '../format/money.ts';
import { focusRing, initialAvatar } from '../primitives/looks.ts';
import { StatusBadge } from '../primitives/StatusBadge.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { ChannelList } from './ChannelList.tsx';

const searchBox = css({ p: '3', borderBottomWidth: '1px', borderColor: 'border', display: 'flex', flexDirection: 'column', gap: '2' });
const entry = css({ display: 'flex', gap: '3', alignItems: 'center', px: '3' });
export const avatar = cx(initialAvatar, css({ w: '10', h: '10' }));
const body = css({ display: 'flex', flexDirection: 'column', gap: '0.5', minW: '0', flex: '1' });
const line = css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2', minW: '0' });
const partnerName = css({ fontWeight: 'semibold', fontSize: 'sm', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
const amounts = css({ fontSize: 'xs', fontVariantNumeric: 'tabular-nums', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
const crypto = css({ fontWeight: 'medium', color: 'fg' });
const fiat = css({ color: 'fg.muted' });
const preview = css({ fontSize: 'xs', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
const unreadBadge = css({
  flexShrink: 0,
  minW: '5',
  h: '5',
  px: '1.5',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  borderRadius: 'full',
  bg: 'accent',
  color: 'accent.fg',
  fontSize: 'xs',
  fontWeight: 'bold',
  fontVariantNumeric: 'tabular-nums',
});
const hidden = css({ srOnly: true });
const empty = css({ p: '6', textAlign: 'center', color: 'fg.muted', fontSize: 'sm' });
const filters = css({ display: 'flex', gap: '1', p: '0.5', bg: 'bg.muted', borderRadius: 'md', alignSelf: 'flex-start' });
const filterButton = cx(
  focusRing,
  css({
    px: '3',
    py: '1',
    borderRadius: 'sm',
    fontSize: 'xs',
    fontWeight: 'medium',
    color: 'fg.muted',
    cursor: 'pointer',
    _focusVisible: { outlineOffset: '1px' },
    '&:hover:not([aria-pressed=true])': { color: 'fg' },
    '&[aria-pressed=true]': { bg: 'bg.surface', color: 'fg', boxShadow: 'sm' },
  }),
);

const FILTERS: ReadonlyArray<{ filter: ConversationFilter; label: string }> = [
  { filter: 'all', label: 'All' },
  { filter: 'open', label: 'Open trades' },
];

/**
 * The left column: the search (debounced in the chart), All / Open trades (kept in the chart), and one entry per
 * trade, latest activity first, each saying which trade it is (coin, amounts, stage) and what is unread in it.
 */
export function ConversationList({
  actor,
  onSelect,
}: {
  actor: ActorRefFrom<typeof tradeChatMachine>;
  onSelect: (channel: string) => void;
}) {
  const conversations = useSelector(actor, selectVisibleConversations, shallowEqual);
  const search = useSelector(actor, selectSearch);
  const filter = useSelector(actor, selectFilter);
  const selected = useSelector(actor, selectSelectedChannel);
  const loading = useSelector(actor, selectIsListLoading);
  const isEmpty = useSelector(actor, selectIsListEmpty);
  const isFilteredEmpty = useSelector(actor, selectIsFilteredEmpty);

  return (
    <>
      <div className={searchBox} role="search">
        <TextField
          label="Search conversations"
          name="search"
          type="search"
          placeholder="Trader's username"
          autoComplete="off"
          value={search}
          onValueChange={(value) => actor.send({ type: 'search.change', value })}
        />
        <div className={filters} role="group" aria-label="Show conversations">
          {FILTERS.map((choice) => (
            <button
              key={choice.filter}
              type="button"
              className={filterButton}
              aria-pressed={filter === choice.filter}
              onClick={() => actor.send({ type: 'filter.change', filter: choice.filter })}
            >
              {choice.label}
            </button>
          ))}
        </div>
      </div>
      {isEmpty ? <p className={empty}>{search.trim() ? 'No conversations match your search.' : 'No conversations yet.'}</p> : null}
      {isFilteredEmpty ? <p className={empty}>No open trades.</p> : null}
      <ChannelList
        label="Conversations"
        busy={loading}
        rows={conversations}
        selected={selected}
        onSelect={onSelect}
        layout={entry}
        marks={(conversation, current) => ({
          'data-partner': conversation.partner,
          'data-status': conversation.status,
          'data-online': conversation.online,
          'data-selected': current,
          'data-unread': String(conversation.unread),
        })}
      >
        {(conversation) => (
          <>
            <span className={avatar} aria-hidden="true">
              {initialOf(conversation.partner)}
            </span>
            <span className={body}>
              <span className={line}>
                <span className={partnerName}>{conversation.partner}</span>
                <StatusBadge status={conversation.status} label={stageWordsOf(conversation)} />
              </span>
              <span className={amounts} data-amount>
                <span className={crypto}>{formatCrypto(conversation.amount_crypto, conversation.coin__decimal_places, conversation.coin__ticker)}</span>
                <span className={fiat}>
                  {' · '}
                  {fiatAmount(conversation.trading_amount, conversation.currency__code)}
                </span>
              </span>
              <span className={line}>
                <span className={preview} data-preview>
                  {previewOf(conversation.last_message)}
                </span>
                {conversation.unread > 0 ? (
                  <span className={unreadBadge} data-unread-badge>
                    <span aria-hidden="true">{conversation.unread}</span>
                    <span className={hidden}>{unreadLabelOf(conversation.unread)}</span>
                  </span>
                ) : null}
              </span>
            </span>
          </>
        )}
      </ChannelList>
    </>
  );
}

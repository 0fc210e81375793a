import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css, cx } from 'styled-system/css';
import type { tradeChatMachine } from '../../machines/tradeChat/tradeChat.machine.ts';
import {
  initialOf,
  previewOf,
  selectConversations,
  selectIsListEmpty,
  selectIsListLoading,
  selectSearch,
  selectSelectedChannel,
} from '../../machines/tradeChat/tradeChat.selectors.ts';
import { initialAvatar } from '../primitives/looks.ts';
import { StatusBadge } from '../primitives/StatusBadge.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { ChannelList } from './ChannelList.tsx';

const searchBox = css({ p: '3', borderBottomWidth: '1px', borderColor: 'border' });
const entry = css({ display: 'flex', gap: '3', alignItems: 'center', px: '3' });
export const avatar = cx(initialAvatar, css({ w: '10', h: '10' }));
const body = css({ display: 'flex', flexDirection: 'column', gap: '0.5', minW: '0', flex: '1' });
const topLine = css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' });
const partnerName = css({ fontWeight: 'semibold', fontSize: 'sm', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
const preview = css({ fontSize: 'xs', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
const empty = css({ p: '6', textAlign: 'center', color: 'fg.muted', fontSize: 'sm' });

/** The left column: the search (debounced in the chart) and one entry per trade, latest activity first. */
export function ConversationList({
  actor,
  onSelect,
}: {
  actor: ActorRefFrom<typeof tradeChatMachine>;
  onSelect: (channel: string) => void;
}) {
  const conversations = useSelector(actor, selectConversations);
  const search = useSelector(actor, selectSearch);
  const selected = useSelector(actor, selectSelectedChannel);
  const loading = useSelector(actor, selectIsListLoading);
  const isEmpty = useSelector(actor, selectIsListEmpty);

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
      </div>
      {isEmpty ? <p className={empty}>{search.trim() ? 'No conversations match your search.' : 'No conversations yet.'}</p> : null}
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
        })}
      >
        {(conversation) => (
          <>
            <span className={avatar} aria-hidden="true">
              {initialOf(conversation.partner)}
            </span>
            <span className={body}>
              <span className={topLine}>
                <span className={partnerName}>{conversation.partner}</span>
                <StatusBadge status={conversation.status} />
              </span>
              <span className={preview} data-preview>
                {previewOf(conversation.last_message)}
              </span>
            </span>
          </>
        )}
      </ChannelList>
    </>
  );
}

import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css, cx } from 'styled-system/css';
import type { tradeChatMachine } from '../../machines/tradeChat/tradeChat.machine.ts';
import { selectConversationRef, selectIsOffline, selectSelection } from '../../machines/tradeChat/tradeChat.selectors.ts';
import { callout } from '../primitives/boxes.ts';
import { ConversationList } from './ConversationList.tsx';
import { ConversationPane } from './ConversationPane.tsx';
import { ColumnLoading, SplitView, splitPlaceholder } from './SplitView.tsx';

const sizes = css({
  gridTemplateColumns: { base: '1fr', md: '20rem 1fr', lg: '22rem 1fr' },
  // The chat fills the window below the bar (the page's title is for screen readers only, so the messages have
  // the room); its message list scrolls, the page does not.
  h: { base: 'calc(100dvh - 7.25rem)', md: 'calc(100dvh - 8.25rem)' },
  minH: '26rem',
  // With no title above it, the chat starts at the top of the page (doubled: beats SplitView's own margin).
  '&&': { mt: '0' },
  // The offline banner takes about 3.25rem above it: the chat shrinks so its input stays in the window.
  '&[data-offline]': { h: { base: 'calc(100dvh - 10.5rem)', md: 'calc(100dvh - 11.5rem)' } },
});
const pageTitle = css({ srOnly: true });
const banner = cx(callout({ tone: 'warning', bordered: false }), css({ mb: '3', px: '4', py: '2', color: 'warning', fontWeight: 'medium' }));

/**
 * /chat: conversations on the left, the selected one on the right (one at a time on small screens).
 * Everything shown is the chat chart's state; choosing and leaving a conversation also set the URL (the route).
 */
export function ChatScreen({
  actor,
  onSelect,
  onBack,
}: {
  actor: ActorRefFrom<typeof tradeChatMachine>;
  onSelect: (channel: string) => void;
  onBack: () => void;
}) {
  const selection = useSelector(actor, selectSelection);
  const conversation = useSelector(actor, selectConversationRef);
  const offline = useSelector(actor, selectIsOffline);

  return (
    <section>
      <h1 className={pageTitle}>Chat</h1>
      <div role="status" className={offline ? banner : undefined} data-connection={offline ? 'offline' : 'live'}>
        {offline ? 'Reconnecting… Messages will catch up as soon as the connection is back.' : null}
      </div>
      <SplitView
        sizes={sizes}
        view={selection === 'none' ? 'list' : 'conversation'}
        detailName="conversation"
        offline={offline}
        list={<ConversationList actor={actor} onSelect={onSelect} />}
        detail={
          selection === 'open' && conversation ? (
            <ConversationPane key={conversation.sessionId} actor={conversation} onBack={onBack} />
          ) : selection === 'waiting' ? (
            <ColumnLoading label="Loading the conversation" />
          ) : (
            <p className={splitPlaceholder}>Select a conversation</p>
          )
        }
      />
    </section>
  );
}

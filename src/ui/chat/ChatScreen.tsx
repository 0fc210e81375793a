import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { tradeChatMachine } from '../../machines/tradeChat/tradeChat.machine.ts';
import { selectConversationRef, selectIsOffline, selectSelection } from '../../machines/tradeChat/tradeChat.selectors.ts';
import { PageHeader } from '../pages/PageHeader.tsx';
import { ConversationList } from './ConversationList.tsx';
import { ConversationPane } from './ConversationPane.tsx';
import { Spinner } from './Spinner.tsx';

const layout = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: '20rem 1fr', lg: '22rem 1fr' },
  gap: '4',
  mt: '4',
  // The chat fills the window below the bar; its message list scrolls, the page does not.
  h: { base: 'calc(100dvh - 13rem)', md: 'calc(100dvh - 15rem)' },
  minH: '26rem',
  // The offline banner takes about 3rem above it: the chat shrinks so its input stays in the window.
  '&[data-offline]': { h: { base: 'calc(100dvh - 16rem)', md: 'calc(100dvh - 18rem)' } },
  // Small screens show one column at a time: the list, or the conversation with a way back.
  '&[data-view=conversation] > [data-column=list]': { display: { base: 'none', md: 'flex' } },
  '&[data-view=list] > [data-column=conversation]': { display: { base: 'none', md: 'flex' } },
});
const column = css({
  display: 'flex',
  flexDirection: 'column',
  minH: '0',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'xl',
  overflow: 'hidden',
});
const placeholder = css({
  flex: '1',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  color: 'fg.muted',
  p: '6',
  textAlign: 'center',
});
const banner = css({
  mt: '4',
  px: '4',
  py: '2',
  borderRadius: 'lg',
  bg: 'warning.subtle',
  color: 'warning',
  fontSize: 'sm',
  fontWeight: 'medium',
});

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
      <PageHeader title="Chat" subtitle="Talk to your trading partners." />
      <div role="status" className={offline ? banner : undefined} data-connection={offline ? 'offline' : 'live'}>
        {offline ? 'Reconnecting… Messages will catch up as soon as the connection is back.' : null}
      </div>
      <div className={layout} data-view={selection === 'none' ? 'list' : 'conversation'} data-offline={offline || undefined}>
        <div className={column} data-column="list">
          <ConversationList actor={actor} onSelect={onSelect} />
        </div>
        <div className={column} data-column="conversation">
          {selection === 'open' && conversation ? (
            <ConversationPane key={conversation.sessionId} actor={conversation} onBack={onBack} />
          ) : selection === 'waiting' ? (
            <div className={placeholder}>
              <Spinner label="Loading the conversation" />
            </div>
          ) : (
            <p className={placeholder}>Select a conversation</p>
          )}
        </div>
      </div>
    </section>
  );
}

import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { z } from 'zod/mini';
import { selectUser } from '../../machines/session/session.selectors.ts';
import { bindTradeChat } from '../../machines/tradeChat/tradeChat.actors.ts';
import { ChatScreen } from '../../ui/chat/ChatScreen.tsx';
import { channelSearch, openChannelHandlers } from '../-openChannel.ts';
import { useFlowActor } from '../-useFlow.ts';

export const Route = createFileRoute('/_app/chat')({
  validateSearch: (search: Record<string, unknown>) => z.parse(channelSearch, search),
  component: ChatRoute,
});

function ChatRoute() {
  const { session } = Route.useRouteContext();
  const username = useSelector(session, selectUser)?.username ?? '';
  const { channel } = Route.useSearch();
  const navigate = Route.useNavigate();
  const chat = useFlowActor(bindTradeChat, { input: { username, channel: channel ?? null } });
  // `?channel=` is where "Trade Opened!" lands.
  const { onSelect, onBack } = openChannelHandlers((search) => void navigate({ search, replace: true }), {
    select: (selected) => chat.send({ type: 'conversation.select', channel: selected }),
    close: () => chat.send({ type: 'conversation.close' }),
  });
  return <ChatScreen actor={chat} onSelect={onSelect} onBack={onBack} />;
}

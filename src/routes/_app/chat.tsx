import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { z } from 'zod/mini';
import { selectUser } from '../../machines/session/session.selectors.ts';
import { bindTradeChat } from '../../machines/tradeChat/tradeChat.actors.ts';
import { ChatScreen } from '../../ui/chat/ChatScreen.tsx';
import { useFlowActor } from '../-useFlow.ts';

/** `?channel=` opens one conversation (where "Trade Opened!" lands); anything else there is ignored. */
const chatSearch = z.object({
  channel: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(100))), undefined),
});

export const Route = createFileRoute('/_app/chat')({
  validateSearch: (search: Record<string, unknown>) => z.parse(chatSearch, search),
  component: ChatRoute,
});

function ChatRoute() {
  const { session } = Route.useRouteContext();
  const username = useSelector(session, selectUser)?.username ?? '';
  const { channel } = Route.useSearch();
  const navigate = Route.useNavigate();
  const chat = useFlowActor(bindTradeChat, { input: { username, channel: channel ?? null } });
  return (
    <ChatScreen
      actor={chat}
      onSelect={(selected) => {
        chat.send({ type: 'conversation.select', channel: selected });
        void navigate({ search: { channel: selected }, replace: true });
      }}
      onBack={() => {
        chat.send({ type: 'conversation.close' });
        void navigate({ search: {}, replace: true });
      }}
    />
  );
}

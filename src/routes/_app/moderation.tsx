import { createFileRoute, notFound } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { bindModerationDesk } from '../../machines/moderationDesk/moderationDesk.actors.ts';
import { ModerationScreen } from '../../ui/moderation/ModerationScreen.tsx';
import { channelSearch, openChannelHandlers } from '../-openChannel.ts';
import { useFlowActor } from '../-useFlow.ts';

export const Route = createFileRoute('/_app/moderation')({
  validateSearch: (search: Record<string, unknown>) => z.parse(channelSearch, search),
  // Only moderators have a desk: anyone else meets the 404 of an unknown page (and the server's 403 on every call).
  // The session is read directly, not through its selectors: this guard ships with every first page.
  beforeLoad: ({ context }) => {
    if (context.session.getSnapshot().context.user?.role !== 'moderator') throw notFound();
  },
  component: ModerationRoute,
});

function ModerationRoute() {
  const { channel } = Route.useSearch();
  const navigate = Route.useNavigate();
  const desk = useFlowActor(bindModerationDesk, { input: { channel: channel ?? null } });
  const { onSelect, onBack } = openChannelHandlers((search) => void navigate({ search, replace: true }), {
    select: (selected) => desk.send({ type: 'dispute.select', channel: selected }),
    close: () => desk.send({ type: 'dispute.close' }),
  });
  return <ModerationScreen actor={desk} onSelect={onSelect} onBack={onBack} />;
}

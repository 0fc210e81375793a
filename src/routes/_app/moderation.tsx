import { createFileRoute, notFound } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { bindModerationDesk } from '../../machines/moderationDesk/moderationDesk.actors.ts';
import { ModerationScreen } from '../../ui/moderation/ModerationScreen.tsx';
import { useFlowActor } from '../-useFlow.ts';

/** `?channel=` opens one dispute; anything else there is ignored. */
const moderationSearch = z.object({
  channel: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(100))), undefined),
});

export const Route = createFileRoute('/_app/moderation')({
  validateSearch: (search: Record<string, unknown>) => z.parse(moderationSearch, search),
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
  return (
    <ModerationScreen
      actor={desk}
      onSelect={(selected) => {
        desk.send({ type: 'dispute.select', channel: selected });
        void navigate({ search: { channel: selected }, replace: true });
      }}
      onBack={() => {
        desk.send({ type: 'dispute.close' });
        void navigate({ search: {}, replace: true });
      }}
    />
  );
}

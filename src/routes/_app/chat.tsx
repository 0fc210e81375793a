import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/chat')({
  component: () => <ComingSoon title="Chat" subtitle="Talk to your trading partners." empty="Select a conversation" />,
});

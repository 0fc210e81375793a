import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/wallets/deposit')({
  component: () => <ComingSoon title="Deposit" subtitle="Receive crypto into your wallet." empty="Select a cryptocurrency" />,
});

import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/wallets/withdraw')({
  component: () => <ComingSoon title="Withdraw" subtitle="Send crypto to an outside address." empty="Withdrawals arrive with the wallets." />,
});

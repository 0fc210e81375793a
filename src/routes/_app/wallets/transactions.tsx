import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/wallets/transactions')({
  component: () => <ComingSoon title="Recent Transactions" subtitle="Deposits and withdrawals of your wallets." empty="No transactions found matching your criteria." />,
});

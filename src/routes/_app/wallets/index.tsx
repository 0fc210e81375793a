import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/wallets/')({
  component: () => <ComingSoon title="My Wallets" subtitle="Your balances in every coin." empty="Wallets arrive with deposits and withdrawals." />,
});

import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/trades')({
  component: () => <ComingSoon title="Recent Trades" subtitle="Every trade you opened or answered." empty="No trades found matching your criteria." />,
});

import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/offers/')({
  component: () => <ComingSoon title="Browse Offers" subtitle="Find the best crypto trading opportunities" empty="No offers found matching your criteria." />,
});

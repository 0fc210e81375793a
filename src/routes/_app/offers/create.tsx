import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/offers/create')({
  component: () => <ComingSoon title="Create New Offer" subtitle="Publish a buy or sell offer for other traders." empty="The offer form arrives with the marketplace." />,
});

import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../../ui/pages/ComingSoon.tsx';

export const Route = createFileRoute('/_app/offers/$id')({
  component: () => <ComingSoon title="Edit Offer" subtitle="Change the terms of your offer." empty="The offer form arrives with the marketplace." />,
});

import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { OfferFormScreen } from '../../../ui/offers/OfferFormScreen.tsx';

export const Route = createFileRoute('/_app/offers/create')({ component: CreateOfferRoute });

function CreateOfferRoute() {
  const { flows } = Route.useRouteContext();
  return <OfferFormScreen actor={useActorRef(flows.offerForm, { input: { offerId: null } })} />;
}

import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindOfferForm } from '../../../machines/offerForm/offerForm.actors.ts';
import { useFlow } from '../../-useFlow.ts';
import { OfferFormScreen } from '../../../ui/offers/OfferFormScreen.tsx';

export const Route = createFileRoute('/_app/offers/create')({ component: CreateOfferRoute });

function CreateOfferRoute() {
  return <OfferFormScreen actor={useActorRef(useFlow(bindOfferForm), { input: { offerId: null } })} />;
}

import { createFileRoute } from '@tanstack/react-router';
import { bindOfferForm } from '../../../machines/offerForm/offerForm.actors.ts';
import { useFlowActor } from '../../-useFlow.ts';
import { OfferFormScreen } from '../../../ui/offers/OfferFormScreen.tsx';

export const Route = createFileRoute('/_app/offers/create')({ component: CreateOfferRoute });

function CreateOfferRoute() {
  return <OfferFormScreen actor={useFlowActor(bindOfferForm, { input: { offerId: null } })} />;
}

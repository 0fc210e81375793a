import { createFileRoute } from '@tanstack/react-router';
import { bindOfferForm } from '../../../machines/offerForm/offerForm.actors.ts';
import { useFlowActor } from '../../-useFlow.ts';
import { OfferFormScreen } from '../../../ui/offers/OfferFormScreen.tsx';

export const Route = createFileRoute('/_app/offers/$id')({ component: EditOfferRoute });

function EditOfferRoute() {
  const { id } = Route.useParams();
  // A non-numeric id can name no offer; the machine's load fails and it returns to /offers.
  const offerId = /^\d{1,9}$/.test(id) ? Number(id) : 0;
  return <OfferFormScreen key={id} actor={useFlowActor(bindOfferForm, { input: { offerId } })} />;
}

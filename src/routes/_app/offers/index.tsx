import { createFileRoute } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { bindOfferBrowser } from '../../../machines/offerBrowser/offerBrowser.actors.ts';
import { useFlow } from '../../-useFlow.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { OffersScreen } from '../../../ui/offers/OffersScreen.tsx';

export const Route = createFileRoute('/_app/offers/')({ component: OffersRoute });

function OffersRoute() {
  const { session } = Route.useRouteContext();
  const user = useSelector(session, selectUser);
  return <OffersScreen actor={useActorRef(useFlow(bindOfferBrowser))} username={user?.username ?? ''} />;
}

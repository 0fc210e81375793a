import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import { bindOfferBrowser } from '../../../machines/offerBrowser/offerBrowser.actors.ts';
import type { FlowDeps } from '../../../machines/shared/deps.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { OffersScreen } from '../../../ui/offers/OffersScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';
import { useTradePreview } from '../../-useTradePreview.tsx';

export const Route = createFileRoute('/_app/offers/')({ component: OffersRoute });

function OffersRoute() {
  const { session } = Route.useRouteContext();
  const user = useSelector(session, selectUser);
  const { take, dialog } = useTradePreview();
  // The list's chart decides whether an offer may be taken (offer.take); taking it opens the dialog beside it.
  const bindBrowser = useCallback((deps: FlowDeps) => bindOfferBrowser(deps, take), [take]);
  const browser = useFlowActor(bindBrowser);
  return (
    <>
      <OffersScreen actor={browser} username={user?.username ?? ''} />
      {dialog}
    </>
  );
}

import { createFileRoute } from '@tanstack/react-router';
import { bindTraderDossier } from '../../../../machines/traderDossier/traderDossier.actors.ts';
import { TraderDossierScreen } from '../../../../ui/operator/TraderDossierScreen.tsx';
import { useFlowActor } from '../../../-useFlow.ts';

export const Route = createFileRoute('/_app/operator/traders/$username')({ component: TraderDossierRoute });

function TraderDossierRoute() {
  const { username } = Route.useParams();
  // Another name in the URL is another trader: a fresh chart, not the last one's page.
  return <TraderDossier key={username} username={username} />;
}

function TraderDossier({ username }: { username: string }) {
  return <TraderDossierScreen actor={useFlowActor(bindTraderDossier, { input: { username } })} />;
}

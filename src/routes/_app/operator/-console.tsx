import { notFound, useParams } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { bindAuditLog } from '../../../machines/auditLog/auditLog.actors.ts';
import { bindOperatorOverview } from '../../../machines/operatorOverview/operatorOverview.actors.ts';
import { bindReviewQueue } from '../../../machines/reviewQueue/reviewQueue.actors.ts';
import { bindTraderDossier } from '../../../machines/traderDossier/traderDossier.actors.ts';
import { bindTraderSearch } from '../../../machines/traderSearch/traderSearch.actors.ts';
import { AuditLogScreen } from '../../../ui/operator/AuditLogScreen.tsx';
import { OverviewScreen } from '../../../ui/operator/OverviewScreen.tsx';
import { ReviewQueueScreen } from '../../../ui/operator/ReviewQueueScreen.tsx';
import { TraderDossierScreen } from '../../../ui/operator/TraderDossierScreen.tsx';
import { TraderSearchScreen } from '../../../ui/operator/TraderSearchScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

/**
 * The console's pages, each its screen over its chart, in one module its route loads lazily: the console is one
 * chunk of its own, and the route's entry in the first page's route tree names that one chunk instead of the
 * dozen the console's screens share with the rest of the app (bench/bundle-size.ts).
 */

function OverviewPage() {
  return <OverviewScreen actor={useFlowActor(bindOperatorOverview)} />;
}

/**
 * /operator (the overview), /operator/traders (the search), /operator/traders/alice (alice's page),
 * /operator/reviews, /operator/audit; any other section, or a name after one that takes none, is the 404 of an
 * unknown page.
 */
export function ConsolePage(): ReactElement {
  // Typed here, not inferred from the route: the route's type is this page's (a cycle TypeScript cannot infer).
  const { section, username }: { section?: string; username?: string } = useParams({ strict: false });
  if (section === undefined) return <OverviewPage />;
  // Another name in the URL is another trader: a fresh chart, not the last one's page.
  if (section === 'traders') return username ? <TraderDossier key={username} username={username} /> : <TraderSearch />;
  if (username === undefined && section === 'reviews') return <ReviewQueuePage />;
  if (username === undefined && section === 'audit') return <AuditLogPage />;
  throw notFound();
}

function TraderSearch() {
  return <TraderSearchScreen actor={useFlowActor(bindTraderSearch, { input: { query: '' } })} />;
}

function TraderDossier({ username }: { username: string }) {
  return <TraderDossierScreen actor={useFlowActor(bindTraderDossier, { input: { username } })} />;
}

function ReviewQueuePage() {
  return <ReviewQueueScreen actor={useFlowActor(bindReviewQueue)} />;
}

function AuditLogPage() {
  return <AuditLogScreen actor={useFlowActor(bindAuditLog)} />;
}

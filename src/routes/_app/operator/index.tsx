import { createFileRoute } from '@tanstack/react-router';
import { bindOperatorOverview } from '../../../machines/operatorOverview/operatorOverview.actors.ts';
import { OverviewScreen } from '../../../ui/operator/OverviewScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/operator/')({ component: OverviewRoute });

function OverviewRoute() {
  return <OverviewScreen actor={useFlowActor(bindOperatorOverview)} />;
}

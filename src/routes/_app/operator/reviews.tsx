import { createFileRoute } from '@tanstack/react-router';
import { bindReviewQueue } from '../../../machines/reviewQueue/reviewQueue.actors.ts';
import { ReviewQueueScreen } from '../../../ui/operator/ReviewQueueScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

export const Route = createFileRoute('/_app/operator/reviews')({ component: ReviewQueueRoute });

function ReviewQueueRoute() {
  return <ReviewQueueScreen actor={useFlowActor(bindReviewQueue)} />;
}

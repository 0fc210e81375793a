import { fromCallback, type EventObject } from 'xstate';
import { OPERATORS_CHANNEL, operatorEvents, operatorOverview, type OperatorOverview } from '../../../contracts/operator.ts';
import type { RealtimeService } from '../../services/realtime.ts';
import { parsed } from './channels.ts';

/**
 * `private-operators` for the console's bindings (the overview, the review queue): each chart names what it
 * hears. For bindings only, as shared/channels.ts: a chart's own file never imports it. Leaving the state that
 * invoked it ends the subscription.
 */
export const operatorsChannel = (
  realtime: Pick<RealtimeService, 'subscribe'>,
  hear: { subscribed: EventObject; reviews?: EventObject; overview?: (overview: OperatorOverview) => EventObject },
) =>
  fromCallback<EventObject>(({ sendBack }) => {
    const { overview, reviews } = hear;
    return realtime.subscribe(OPERATORS_CHANNEL, {
      events: {
        ...(overview ? { [operatorEvents.overview]: parsed(operatorOverview, (value) => sendBack(overview(value))) } : {}),
        // `{}`: the queue is read again whole, so the payload need not be trusted.
        ...(reviews ? { [operatorEvents.reviews]: () => sendBack(reviews) } : {}),
      },
      onSubscribed: () => sendBack(hear.subscribed),
    });
  });

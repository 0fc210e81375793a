import { readInto } from './reading.ts';

/**
 * The trader's own standing (`market/traders/` standing) read beside offers (Browse Offers, a trader's profile), so
 * that a card says before the trade whether the trader meets the offer's conditions. A chart that uses it declares
 * in its `setup` the call `loadStanding` and the action `keepStanding` (`{ standing }`).
 */
export const standingRead = {
  description: 'The trader\'s own completed trades, account age and two-factor: which offers\' conditions they meet.',
  initial: 'loading',
  states: {
    loading: {
      invoke: readInto('loadStanding', ['keepStanding', 'standing'], {
        done: 'known',
        failed: 'unknown',
        failure: 'Not known: every trade button stays enabled, and the server refuses an open with the condition named.',
      }),
    },
    known: {},
    unknown: {},
  },
} as const;

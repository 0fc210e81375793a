import { notFound, sentencesOf, stateConflict } from '../refusals.ts';

/** The refusals of ratings and trader profiles, each with its stable code (gathered into `REFUSALS`, server/src/sentences.ts). */
export const reputationRefusals = {
  alreadyRated: stateConflict('rating.already_rated', 'You have already rated this trade.'),
  onlyCompletedRated: stateConflict('rating.trade_not_completed', 'Only a completed trade can be rated.'),
  tooSmallToRate: stateConflict('rating.trade_too_small', 'This trade was too small to count toward reputation, so it cannot be rated.'),
  traderNotFound: notFound('trader.not_found', 'This trader does not exist.'),
} as const;

/** The sentences of ratings and trader profiles (spread into `sentences`, server/src/sentences.ts). */
export const reputationSentences = {
  ...sentencesOf(reputationRefusals),
  rated: 'Thanks for your rating.',
};

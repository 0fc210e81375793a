/** The sentences of ratings and trader profiles (spread into `sentences`, server/src/sentences.ts). */
export const reputationSentences = {
  rated: 'Thanks for your rating.',
  alreadyRated: 'You have already rated this trade.',
  onlyCompletedRated: 'Only a completed trade can be rated.',
  tooSmallToRate: 'This trade was too small to count toward reputation, so it cannot be rated.',
  traderNotFound: 'This trader does not exist.',
};

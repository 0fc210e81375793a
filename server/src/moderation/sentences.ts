import { notAllowed, sentencesOf, stateConflict } from '../refusals.ts';

/** The dispute desk's refusals, each with its stable code (gathered into `REFUSALS`, server/src/sentences.ts). */
export const moderationRefusals = {
  moderatorsOnly: notAllowed('moderation.moderators_only', 'Only moderators can use the dispute desk.'),
  disputeAlreadySettled: stateConflict('moderation.already_settled', 'This trade has already been settled.'),
  ownTradeDispute: notAllowed('moderation.own_trade_dispute', 'You cannot settle a dispute on your own trade.'),
  ownTradeModeration: notAllowed('moderation.own_trade', 'You cannot moderate your own trade.'),
} as const;

/** The dispute desk's sentences (spread into `sentences`, server/src/sentences.ts). */
export const moderationSentences = {
  ...sentencesOf(moderationRefusals),
  disputeReleased: (buyer: string) => `Dispute settled: the coins were released to ${buyer}.`,
  disputeRefunded: (seller: string) => `Dispute settled: the coins went back to ${seller}.`,
} as const;

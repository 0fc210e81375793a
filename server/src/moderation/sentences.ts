/** The dispute desk's sentences (spread into `sentences`, server/src/sentences.ts). */
export const moderationSentences = {
  moderatorsOnly: 'Only moderators can use the dispute desk.',
  disputeAlreadySettled: 'This trade has already been settled.',
  ownTradeDispute: 'You cannot settle a dispute on your own trade.',
  ownTradeModeration: 'You cannot moderate your own trade.',
  disputeReleased: (buyer: string) => `Dispute settled: the coins were released to ${buyer}.`,
  disputeRefunded: (seller: string) => `Dispute settled: the coins went back to ${seller}.`,
} as const;

/**
 * What the chain side says to a person: the development driver's refusals (POST /api/dev/chain/, read by a
 * developer at their terminal) and the simulated chain's broadcast refusals (kept in a withdrawal's
 * `broadcast_error`, read by an operator).
 */
export const chainSentences = {
  notSimulated: 'The chain driver works only with CHAIN_SOURCE=simulated.',
  invalidAddress: (network: string) => `address is not a valid ${network} address.`,
  unknownTicker: (ticker: string, network: string, carried: readonly string[]) =>
    `${ticker} does not travel on ${network}; it carries ${carried.join(', ')}.`,
  tickerRequired: (network: string, carried: readonly string[]) =>
    `ticker is required on ${network}: it carries ${carried.join(', ')}.`,
  noCoinsOnNetwork: (network: string) => `No coin travels on ${network} here.`,
  tooManyPlaces: (ticker: string, places: number) =>
    `amount has more decimal places than ${ticker} has (at most ${places}).`,
  broadcastBadAddress: (network: string) => `The recipient is not a valid ${network} address.`,
  broadcastBadAsset: (asset: string, network: string) => `${asset} does not travel on ${network}.`,
  broadcastBadAmount: (amount: string) => `The amount ${amount} is not a positive decimal.`,
} as const;

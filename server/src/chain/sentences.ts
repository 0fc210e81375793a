import { invalidInput, unavailable } from '../refusals.ts';

/**
 * The development driver's refusals (POST /api/dev/chain/, read by a developer at their terminal), each with
 * its stable code (gathered into `REFUSALS`, server/src/sentences.ts).
 */
export const chainRefusals = {
  notSimulated: unavailable('dev_chain.not_simulated', 'The chain driver works only with CHAIN_SOURCE=simulated.'),
  onRealChain: invalidInput(
    'dev_chain.on_real_chain',
    (network: string) => `${network} is read from a real node here (EVM_NETWORKS): pay the address on that chain instead.`,
  ),
  invalidAddress: invalidInput('dev_chain.invalid_address', (network: string) => `address is not a valid ${network} address.`),
  unknownTicker: invalidInput(
    'dev_chain.unknown_ticker',
    (ticker: string, network: string, carried: readonly string[]) => `${ticker} does not travel on ${network}; it carries ${carried.join(', ')}.`,
  ),
  tickerRequired: invalidInput(
    'dev_chain.ticker_required',
    (network: string, carried: readonly string[]) => `ticker is required on ${network}: it carries ${carried.join(', ')}.`,
  ),
  noCoinsOnNetwork: invalidInput('dev_chain.no_coins_on_network', (network: string) => `No coin travels on ${network} here.`),
  tooManyPlaces: invalidInput(
    'dev_chain.too_many_places',
    (ticker: string, places: number) => `amount has more decimal places than ${ticker} has (at most ${places}).`,
  ),
} as const;

/**
 * What the simulated chain says when it refuses a broadcast: kept in a withdrawal's `broadcast_error` and read
 * by an operator, never an answer to a call.
 */
export const chainSentences = {
  broadcastBadAddress: (network: string) => `The recipient is not a valid ${network} address.`,
  broadcastBadAsset: (asset: string, network: string) => `${asset} does not travel on ${network}.`,
  broadcastBadAmount: (amount: string) => `The amount ${amount} is not a positive decimal.`,
} as const;

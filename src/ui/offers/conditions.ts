import type { OfferConditions } from '../../../contracts/market.ts';

const count = (value: number) => value.toLocaleString('en-US');

/**
 * An offer's counterparty conditions as short phrases ("5+ completed trades", "account 30+ days old",
 * "two-factor on"), for the offer cards and the offer form's preview; none when anyone may take it. Wording
 * only: whether a taker meets them is decided by domain/offerConditions.ts.
 */
export function conditionPhrases(offer: OfferConditions): string[] {
  const phrases: string[] = [];
  if (offer.min_completed_trades > 0) {
    phrases.push(`${count(offer.min_completed_trades)}+ completed ${offer.min_completed_trades === 1 ? 'trade' : 'trades'}`);
  }
  if (offer.min_account_days > 0) phrases.push(`account ${count(offer.min_account_days)}+ ${offer.min_account_days === 1 ? 'day' : 'days'} old`);
  if (offer.require_two_factor) phrases.push('two-factor on');
  return phrases;
}

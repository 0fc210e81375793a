import type { OfferConditions } from '../../../contracts/index.ts';
import type { TraderStanding } from '../../../contracts/traders.ts';
import { CONDITION_NUMBER_FIELDS, conditionFieldProblem, unmetCondition, type ConditionNumberField } from '../../../domain/offerConditions.ts';
import { amountError, confirmPasswordError, emailError, isRecoveryCode, isSecondFactor, passwordError, usernameError } from './validation.ts';

/** The offer form's fields an offer cannot go without. */
type OfferFormRequired = { coin: string; currency: string; rate: string; min_amount: string; max_amount: string; payment_methods: string[] };

const isNewPasswordValid = (params: { password: string; confirmPassword: string }) =>
  passwordError(params.password) === undefined && confirmPasswordError(params.confirmPassword, params.password) === undefined;

/**
 * The field rules as the guards the charts name (`isEmailValid`, …). A chart declares each by name with
 * the value it checks as its parameter, and its binding (`*.actors.ts`) provides these, so the chart's own
 * file needs nothing but xstate, and the rules stay the contracts' (shared/validation.ts).
 */
export const formRules = {
  isEmailValid: (_: unknown, params: { value: string }) => emailError(params.value) === undefined,
  /** Signup's account form: a username, a password and its confirmation, each by its rule. */
  isAccountValid: (_: unknown, params: { username: string; password: string; confirmPassword: string }) =>
    usernameError(params.username) === undefined && isNewPasswordValid(params),
  /** A new password and its confirmation (signup, reset). */
  isNewPasswordValid: (_: unknown, params: { password: string; confirmPassword: string }) => isNewPasswordValid(params),
  isRecoveryCode: (_: unknown, params: { value: string }) => isRecoveryCode(params.value),
  /** An authenticator or recovery code, and the account's password, to change two-factor. */
  isProofComplete: (_: unknown, params: { code: string; password: string }) => isSecondFactor(params.code) && params.password !== '',
  /**
   * The offer form: coin, currency, rate, min and max set and a payment method chosen (the server checks each
   * again), and the counterparty conditions' numbers by the rule the server checks them with.
   */
  isOfferValid: (_: unknown, params: OfferFormRequired & Record<ConditionNumberField, string>) =>
    params.coin !== '' &&
    params.currency !== '' &&
    params.rate.trim() !== '' &&
    params.min_amount.trim() !== '' &&
    params.max_amount.trim() !== '' &&
    params.payment_methods.length > 0 &&
    CONDITION_NUMBER_FIELDS.every((field) => conditionFieldProblem(field, params[field]) === undefined),
  /** The Trade Preview dialog asks for a preview with an amount in the offer's range and one of its methods. */
  canPreview: (_: unknown, params: { amount: string; paymentMethod: string; offer: { min_amount: string; max_amount: string; payment_methods: string[] } | null }) =>
    params.offer !== null &&
    params.amount.trim() !== '' &&
    amountError(params.amount, params.offer) === undefined &&
    params.offer.payment_methods.includes(params.paymentMethod),
};

/**
 * Taking an offer (Browse Offers, a trader's profile): the trader meets the offer's counterparty conditions
 * (domain/offerConditions.ts, the rule the server refuses an open by), or their standing is unknown and the server
 * will say.
 */
export const offerRules = {
  canTake: (_: unknown, params: { offer: OfferConditions; standing: TraderStanding | null }) =>
    params.standing === null || unmetCondition(params.offer, params.standing) === null,
};

/**
 * For each offer the trader may not take (`mayTake`, the chart's `offer.take`, refuses it): the sentence of the first
 * condition they miss, the very one the server would refuse an open with. A card whose trade button is refused shows it.
 */
export function takeRefusals<Offer extends OfferConditions & { id: number }>(
  offers: readonly Offer[],
  standing: TraderStanding | null,
  mayTake: (offer: Offer) => boolean,
): ReadonlyMap<number, string> {
  const refusals = new Map<number, string>();
  for (const offer of offers) {
    if (mayTake(offer)) continue;
    refusals.set(offer.id, (standing && unmetCondition(offer, standing)) ?? '');
  }
  return refusals;
}

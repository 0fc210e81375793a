import type { SnapshotFrom } from 'xstate';
import { CONDITION_NUMBER_FIELDS, conditionFieldProblem, type ConditionNumberField } from '../../../domain/offerConditions.ts';
import type { offerFormMachine } from './offerForm.machine.ts';

type OfferFormSnapshot = SnapshotFrom<typeof offerFormMachine>;

export const selectIsEditing = (snapshot: OfferFormSnapshot) => snapshot.context.offerId !== null;
export const selectIsLoading = (snapshot: OfferFormSnapshot) =>
  snapshot.matches('loadingComponents') || snapshot.matches('loadingOffer');
export const selectIsSubmitting = (snapshot: OfferFormSnapshot) => snapshot.matches('submitting');
export const selectIsToggling = (snapshot: OfferFormSnapshot) => snapshot.matches('toggling');
export const selectCanSubmit = (snapshot: OfferFormSnapshot) => snapshot.can({ type: 'form.submit' });
export const selectValues = (snapshot: OfferFormSnapshot) => snapshot.context.values;
export const selectComponents = (snapshot: OfferFormSnapshot) => snapshot.context.components;
export const selectIsActive = (snapshot: OfferFormSnapshot) => snapshot.context.isActive;
/** The chosen fiat currency with its USD rate, for "Market Rate: 1.00 USD ≈ {fx rate} {currency}". */
export const selectCurrency = (snapshot: OfferFormSnapshot) =>
  snapshot.context.components?.currencies.find((entry) => entry.code === snapshot.context.values.currency) ?? null;
export const selectCoin = (snapshot: OfferFormSnapshot) =>
  snapshot.context.components?.coins.find((entry) => String(entry.id) === snapshot.context.values.coin) ?? null;
/** Each condition number's message, in the words the server would refuse it with; absent while it is fine. */
export const selectConditionErrors = (snapshot: OfferFormSnapshot): Partial<Record<ConditionNumberField, string>> => {
  const { values } = snapshot.context;
  const errors: Partial<Record<ConditionNumberField, string>> = {};
  for (const field of CONDITION_NUMBER_FIELDS) {
    const problem = conditionFieldProblem(field, values[field]);
    if (problem) errors[field] = problem;
  }
  return errors;
};

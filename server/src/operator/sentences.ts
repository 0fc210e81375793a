import { notAllowed, sentencesOf } from '../refusals.ts';

/** The operator console's refusals, each with its stable code (gathered into `REFUSALS`, server/src/sentences.ts). */
export const operatorRefusals = {
  operatorsOnly: notAllowed('operator.operators_only', 'Only operators can use the operator console.'),
  /** An operator holds nothing and trades nothing (docs/operators.md "The role"). */
  operatorsDoNotTrade: notAllowed('operator.not_a_trader', "Operators do not trade: sign in with a trader's account."),
} as const;

/** The operator console's sentences (spread into `sentences`, server/src/sentences.ts). */
export const operatorSentences = {
  ...sentencesOf(operatorRefusals),
} as const;

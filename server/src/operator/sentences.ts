import { notAllowed, notSignedIn, sentencesOf } from '../refusals.ts';

/** The operator console's refusals, each with its stable code (gathered into `REFUSALS`, server/src/sentences.ts). */
export const operatorRefusals = {
  operatorsOnly: notAllowed('operator.operators_only', 'Only operators can use the operator console.'),
  /** An operator holds nothing and trades nothing (docs/operators.md "The role"). */
  operatorsDoNotTrade: notAllowed('operator.not_a_trader', "Operators do not trade: sign in with a trader's account."),
  /** GET /metrics without METRICS_TOKEN, from another machine or through a proxy (docs/operators.md "Monitoring"). */
  metricsTokenRequired: notSignedIn(
    'operator.metrics_token_required',
    'GET /metrics answers only this machine: set METRICS_TOKEN on the server and scrape with "Authorization: Bearer <METRICS_TOKEN>".',
  ),
  /** GET /metrics with METRICS_TOKEN set, and not sent (or another one). */
  metricsTokenRefused: notSignedIn('operator.metrics_token_refused', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".'),
} as const;

/** The operator console's sentences (spread into `sentences`, server/src/sentences.ts). */
export const operatorSentences = {
  ...sentencesOf(operatorRefusals),
} as const;

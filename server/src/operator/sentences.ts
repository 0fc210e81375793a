import { notAllowed, notFound, notSignedIn, sentencesOf, stateConflict } from '../refusals.ts';

/** The operator console's refusals, each with its stable code (gathered into `REFUSALS`, server/src/sentences.ts). */
export const operatorRefusals = {
  operatorsOnly: notAllowed('operator.operators_only', 'Only operators can use the operator console.'),
  /** An operator holds nothing and trades nothing (docs/operators.md "The role"). */
  operatorsDoNotTrade: notAllowed('operator.not_a_trader', "Operators do not trade: sign in with a trader's account."),
  noSuchTrader: notFound('operator.no_such_trader', 'There is no trader by that name.'),
  /**
   * Staff accounts are changed from the command line only (docs/operators.md "Traders and suspension"): an operator
   * cannot suspend, force a reset on or sign out a moderator or another operator.
   */
  staffAccount: stateConflict(
    'operator.not_a_trader_account',
    'This is a staff account: the console acts on traders only. Staff accounts are changed from the command line.',
  ),
  alreadySuspended: stateConflict('operator.already_suspended', 'This trader is already suspended.'),
  notSuspended: stateConflict('operator.not_suspended', 'This trader is not suspended.'),
  /** Withdrawal review (docs/operators.md "Withdrawal review"): an id that names no withdrawal (a deposit's included). */
  reviewWithdrawalNotFound: notFound('review.not_found', 'This withdrawal does not exist.'),
  /** Approved or rejected already, by this operator or another: a decision is final. */
  reviewAlreadyDecided: stateConflict('review.already_decided', 'This withdrawal has already been decided.'),
  /** A withdrawal below the threshold, or one confirmed while review was off: it never waited for anyone. */
  reviewNotWaiting: stateConflict('review.not_in_review', 'This withdrawal is not waiting for review.'),
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
  traderSuspended: (username: string) => `${username} is suspended: every session of theirs ended and their offers are paused.`,
  traderReinstated: (username: string) =>
    `${username} is reinstated and can sign in again. Their offers stay paused until they resume them.`,
  passwordResetForced: (username: string) =>
    `${username}'s password no longer works and every session of theirs ended: they choose a new one with "Forgot password?".`,
  sessionsEnded: (username: string) => `Every session of ${username} ended.`,
  noteAdded: 'Note added.',
  withdrawalApproved: 'Withdrawal approved: it goes to the chain now.',
  withdrawalRejected: "Withdrawal rejected: the amount is back in the trader's wallet.",
} as const;

import { z } from 'zod/mini';
import {
  chatRequest,
  tradeRequest,
  type ConfirmationProof,
  type Conversation,
  type TradeAction,
  type TradeFacts,
  type TradeRole,
  type TradeStatus,
} from '../../../contracts/index.ts';
import { availableActions, canTakeAction, isFinished, stageOf } from '../../../domain/tradeLifecycle/tradeLifecycle.ts';

/**
 * The chat's rules, from the lifecycle chart (domain/tradeLifecycle) and the contracts the server decides with:
 * the charts name them as guards (bound in tradeChat.actors.ts), and the selectors read the same functions, so a
 * button, a disabled Submit and the server's refusal always agree.
 */

/** `partner_type` is the partner's role: a conversation with a seller is the buyer's (docs/rules.md "Chat actions"). */
export const roleOf = (conversation: Pick<Conversation, 'partner_type'>): TradeRole =>
  conversation.partner_type === 'seller' ? 'buyer' : 'seller';

/** The actions this trader may take on the trade now, in the order the buttons show (the chart's order). */
export const actionsFor = (conversation: TradeFacts & Pick<Conversation, 'partner_type'>): TradeAction[] =>
  availableActions(conversation, roleOf(conversation));

/** An open trade: one the lifecycle chart has not finished (completed and cancelled are its final states). */
export const isOpenTrade = (facts: TradeFacts): boolean => !isFinished(facts);

/** Where the trade stands, in the lifecycle chart's own states (the list says it in words). */
export { stageOf };

const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

/** Why a message cannot be sent as typed (blank, too long), or undefined. */
export const messageProblem = (text: string) => firstIssue(z.safeParse(chatRequest, { type: 'send_message', message_type: 'text', text }));

/** Why the paying account cannot go with "Mark Paid" (longer than 120 characters), or undefined; blank is not stated. */
export const payerAccountProblem = (payerAccount: string) =>
  firstIssue(z.safeParse(tradeRequest, { type: 'mark_paid', channel: 'any', payer_account: payerAccount }));

/** Why a rating cannot be sent: no score chosen yet, or a comment over 500 characters; undefined when it can. */
export const ratingProblem = (score: number | null, comment: string) =>
  firstIssue(z.safeParse(tradeRequest, { type: 'rate', channel: 'any', score: score ?? undefined, comment }));

/** "Please enter the reason for your dispute" while the reason is blank (or its length limit), or undefined. */
export const reasonProblem = (reason: string) => firstIssue(z.safeParse(tradeRequest, { type: 'raise_dispute', channel: 'any', reason }));

/**
 * Whether "Confirm Release" may go with what was typed: the password the server asked for (anything but nothing),
 * its authenticator code (six digits, spaces aside), or nothing when none is asked.
 */
export const isProofReady = (proof: ConfirmationProof | null, value: string) =>
  proof === null ? true : proof === 'password' ? value !== '' : /^\d{6}$/.test(value.replace(/\s/g, ''));

export const chatRules = {
  canTakeAction: ({ context }: { context: { conversation: Conversation } }, params: { action: TradeAction }) =>
    canTakeAction(context.conversation, params.action, roleOf(context.conversation)),
  /** The server stores a message only while the trade is pending. */
  canSend: (_: unknown, params: { text: string; status: TradeStatus }) =>
    params.status === 'pending' && messageProblem(params.text) === undefined,
  isReasonWritten: (_: unknown, params: { reason: string }) => reasonProblem(params.reason) === undefined,
  isPayerAccountValid: ({ context }: { context: { payerAccount: string } }) => payerAccountProblem(context.payerAccount) === undefined,
  isProofReady: (_: unknown, params: { proof: ConfirmationProof | null; value: string }) => isProofReady(params.proof, params.value),
};

/** The rating form's rule (tradeRating.machine.ts), from the same contract the server checks. */
export const ratingRules = {
  canSubmitRating: ({ context }: { context: { score: number | null; comment: string } }) =>
    ratingProblem(context.score, context.comment) === undefined,
};

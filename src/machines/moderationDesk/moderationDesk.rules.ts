import { z } from 'zod/mini';
import type { DisputeOutcome } from '../../../contracts/index.ts';
import { moderationRequest, type DisputeDetail } from '../../../contracts/moderation.ts';
import { applyAction, canResolve } from '../../../domain/tradeLifecycle/tradeLifecycle.ts';

/**
 * The desk's rules, from the lifecycle chart and the contracts the server decides with: the chart names them
 * as guards (bound in moderationDesk.actors.ts) and the selectors read the same functions, so a disabled
 * button, a dialog's message and the server's refusal agree.
 */

const settlementOf = { release: 'resolve_release', refund: 'resolve_refund' } as const;

const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

/** Why the moderator's message cannot be sent as typed (blank, too long), or undefined. */
export const messageProblem = (text: string) => firstIssue(z.safeParse(moderationRequest, { type: 'message', channel: 'any', text }));

/** "Please write the resolution" while it is blank (or its length limit), or undefined. */
export const resolutionProblem = (resolution: string) =>
  firstIssue(z.safeParse(moderationRequest, { type: 'resolve', channel: 'any', outcome: 'release', resolution }));

/** The lifecycle chart's answer: a disputed trade may be settled this way (once; never a finished one). */
export const isResolvable = (detail: DisputeDetail | null, outcome: DisputeOutcome | null) =>
  detail !== null && outcome !== null && canResolve(detail, settlementOf[outcome]);

/** The trade as a settlement leaves it: the facts the lifecycle chart moves it to, and the resolution. */
export function settled(detail: DisputeDetail, outcome: DisputeOutcome, text: string, at: string): DisputeDetail {
  const facts = applyAction(detail, settlementOf[outcome]);
  return facts ? { ...detail, ...facts, resolution: { outcome, text, resolved_at: at } } : detail;
}

type DeskContext = { context: { detail: DisputeDetail | null; outcome: DisputeOutcome | null } };

export const deskRules = {
  /** The server stores a moderator's message only while the trade is pending. */
  canSend: (_: unknown, params: { text: string; detail: DisputeDetail | null }) =>
    params.detail?.status === 'pending' && messageProblem(params.text) === undefined,
  canResolve: ({ context }: DeskContext, params: { outcome: DisputeOutcome }) => isResolvable(context.detail, params.outcome),
  canResolveChosen: ({ context }: DeskContext) => isResolvable(context.detail, context.outcome),
  isReasonWritten: (_: unknown, params: { reason: string }) => resolutionProblem(params.reason) === undefined,
};

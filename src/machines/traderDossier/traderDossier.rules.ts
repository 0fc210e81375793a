import { z } from 'zod/mini';
import { tradersRequest, type TraderDossier } from '../../../contracts/operator.ts';
import type { TraderAction } from '../../services/operator.ts';

/**
 * The trader page's rules, from the contracts the server decides with: the chart names them as guards (bound in
 * traderDossier.actors.ts) and the selectors read the same functions, so a disabled button, a dialog's hint and
 * the server's refusal agree. The review queue's reason is the same written reason (reviewQueue.actors.ts).
 */

const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

/** "Please write the reason" while it is blank, or its length limit; undefined once it would be taken. */
export const reasonProblem = (reason: string) => firstIssue(z.safeParse(tradersRequest, { type: 'suspend', username: 'any', reason }));

/** "Please write the note" while it is blank, or its length limit. */
export const noteProblem = (text: string) => firstIssue(z.safeParse(tradersRequest, { type: 'note', username: 'any', text }));

/** The actions a trader's page offers, in the order of its buttons. */
export const TRADER_ACTIONS: readonly TraderAction[] = ['suspend', 'reinstate', 'force_password_reset', 'end_sessions'];

/** Suspend only one who is not suspended, reinstate only one who is; a reset and ending the sessions at any time. */
export const canTake = (dossier: TraderDossier | null, action: TraderAction) =>
  dossier !== null && (action === 'suspend' ? !dossier.suspended : action === 'reinstate' ? dossier.suspended : true);

type DossierContext = { context: { dossier: TraderDossier | null } };

export const dossierRules = {
  canTake: ({ context }: DossierContext, params: { action: TraderAction }) => canTake(context.dossier, params.action),
  isReasonWritten: (_: unknown, params: { reason: string }) => reasonProblem(params.reason) === undefined,
  isNoteWritten: (_: unknown, params: { text: string }) => noteProblem(params.text) === undefined,
};

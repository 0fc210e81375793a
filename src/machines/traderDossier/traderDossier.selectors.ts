import type { SnapshotFrom } from 'xstate';
import type { TraderAction } from '../../services/operator.ts';
import type { traderDossierMachine } from './traderDossier.machine.ts';
import { TRADER_ACTIONS, canTake, noteProblem, reasonProblem } from './traderDossier.rules.ts';

type DossierSnapshot = SnapshotFrom<typeof traderDossierMachine>;

/** loading: a spinner; failed: a message and "Try again"; missing: "No trader by that name"; open: the page. */
export const selectDossierView = (snapshot: DossierSnapshot): 'loading' | 'failed' | 'missing' | 'open' =>
  snapshot.matches('open') ? 'open' : snapshot.matches('failed') ? 'failed' : snapshot.matches('missing') ? 'missing' : 'loading';
export const selectDossier = (snapshot: DossierSnapshot) => snapshot.context.dossier;
export const selectIsRefreshing = (snapshot: DossierSnapshot) => snapshot.matches({ open: { facts: 'refreshing' } });

// ---- Notes ---------------------------------------------------------------------------------------

export const selectNote = (snapshot: DossierSnapshot) => snapshot.context.note;
/** The server's refusal, else the note's length limit once written in; a blank note only keeps Save disabled. */
export const selectNoteError = (snapshot: DossierSnapshot) =>
  snapshot.context.noteError ?? (snapshot.context.note.trim() === '' ? undefined : noteProblem(snapshot.context.note));
export const selectCanSaveNote = (snapshot: DossierSnapshot) => snapshot.can({ type: 'note.save' });
export const selectIsSavingNote = (snapshot: DossierSnapshot) => snapshot.matches({ open: { notes: 'saving' } });

// ---- The staff actions ---------------------------------------------------------------------------

/** Each action's button, dialog heading and confirmation. */
export const actionTexts: Record<TraderAction, { label: string; heading: string; effect: (username: string) => string; tone: 'destructive' | 'buy' | 'outline' }> = {
  suspend: {
    label: 'Suspend',
    heading: 'Suspend this trader',
    effect: (username) =>
      `${username} will be signed out everywhere and cannot sign in, trade, chat or withdraw; their active offers are paused. Their pending trades go on to an end.`,
    tone: 'destructive',
  },
  reinstate: {
    label: 'Reinstate',
    heading: 'Reinstate this trader',
    effect: (username) => `${username} can sign in, trade, chat and withdraw again.`,
    tone: 'buy',
  },
  force_password_reset: {
    label: 'Force password reset',
    heading: 'Force a password reset',
    effect: (username) => `${username} is signed out everywhere and must choose a new password before signing in again.`,
    tone: 'outline',
  },
  end_sessions: {
    label: 'End sessions',
    heading: 'End their sessions',
    effect: (username) => `${username} is signed out on every device. They can sign in again.`,
    tone: 'outline',
  },
};

export type ActionButton = { action: TraderAction; label: string; tone: 'destructive' | 'buy' | 'outline'; enabled: boolean };

/** The buttons that apply to this trader (suspend or reinstate, never both), each enabled while no dialog is open. */
export const selectActionButtons = (snapshot: DossierSnapshot): ActionButton[] => {
  return TRADER_ACTIONS.filter((action) => canTake(snapshot.context.dossier, action)).map((action) => ({
    action,
    label: actionTexts[action].label,
    tone: actionTexts[action].tone,
    enabled: snapshot.can({ type: 'action.choose', action }),
  }));
};

/** Which step the dialog shows, or null while it is closed. */
export const selectDialogStep = (snapshot: DossierSnapshot): 'writing' | 'confirming' | 'submitting' | 'done' | 'failed' | null => {
  for (const step of ['writing', 'confirming', 'submitting', 'done', 'failed'] as const) if (snapshot.matches({ open: { action: step } })) return step;
  return null;
};
export const selectChosenAction = (snapshot: DossierSnapshot) => snapshot.context.action;
export const selectReason = (snapshot: DossierSnapshot) => snapshot.context.reason;
/** "Please write the reason" while it is blank. */
export const selectReasonError = (snapshot: DossierSnapshot) => reasonProblem(snapshot.context.reason);
export const selectCanContinue = (snapshot: DossierSnapshot) => snapshot.can({ type: 'reason.submit' });
/** The server's sentence once the action is done or refused. */
export const selectOutcome = (snapshot: DossierSnapshot) => snapshot.context.outcome;

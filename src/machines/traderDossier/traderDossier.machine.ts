import { assign, setup } from 'xstate';
import type { TraderDossier } from '../../../contracts/operator.ts';
import type { TraderAction } from '../../services/operator.ts';
import { writingReason } from '../shared/reasonDialog.ts';
import { refusalStatus, refusalText } from '../shared/refusal.ts';
import { unboundAction, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type TraderDossierInput = { username: string };

export type TraderDossierContext = {
  username: string;
  /** Their page as last read. */
  dossier: TraderDossier | null;
  /** The note being written. */
  note: string;
  /** Why the last note was not stored (the server's sentence), until the note is changed. */
  noteError: string | null;
  /** The action the dialog is about, while it is open. */
  action: TraderAction | null;
  /** The written reason in the dialog. */
  reason: string;
  /** The dialog's last word: the server's sentence once the action is done, or why it was refused. */
  outcome: string | null;
  /** Something changed here: the page is read again once no read of it is on its way. */
  stale: boolean;
};

export type TraderDossierEvent =
  | { type: 'dossier.retry' }
  | { type: 'note.change'; value: string }
  | { type: 'note.save' }
  | { type: 'action.choose'; action: TraderAction }
  | { type: 'reason.change'; value: string }
  | { type: 'reason.submit' }
  | { type: 'reason.edit' }
  | { type: 'action.confirm' }
  | { type: 'dialog.dismiss' };

const keptDossier = { type: 'keepDossier' as const, params: ({ event }: { event: { output: TraderDossier } }) => ({ dossier: event.output }) };
const closeDialog = { target: 'idle', actions: 'clearAction' } as const;
/** The trader's page read (`loadTrader`, invoked as `id`), kept on the way to `done`. */
const readingTrader = <const Done extends string>(id: string, done: Done) => ({
  id,
  src: 'loadTrader' as const,
  input: ({ context }: { context: { username: string } }) => ({ username: context.username }),
  onDone: { target: done, actions: keptDossier },
});

/**
 * /operator/traders/$username, one trader's page: balances, trades, sign-ins, devices, notes, and the staff
 * actions (suspend, reinstate, force a password reset, end their sessions), each with a written reason, a
 * confirmation and the server's answer; every change reads the page again.
 */
export const traderDossierMachine = setup({
  types: { context: {} as TraderDossierContext, events: {} as TraderDossierEvent, input: {} as TraderDossierInput },
  actors: {
    loadTrader: unboundPromise<TraderDossier, { username: string }>('loadTrader'),
    /** Answers the server's sentence. */
    addNote: unboundPromise<string, { username: string; text: string }>('addNote'),
    /** Answers the server's sentence. */
    takeAction: unboundPromise<string, { username: string; action: TraderAction; reason: string }>('takeAction'),
  },
  actions: {
    keepDossier: assign((_, params: { dossier: TraderDossier }) => ({ dossier: params.dossier })),
    setNote: assign((_, params: { value: string }) => ({ note: params.value, noteError: null })),
    clearNote: assign({ note: '', noteError: null }),
    setNoteError: assign((_, params: { error: unknown }) => ({ noteError: refusalText(params.error) })),
    setAction: assign((_, params: { action: TraderAction }) => ({ action: params.action, reason: '', outcome: null })),
    setReason: assign((_, params: { value: string }) => ({ reason: params.value })),
    setOutcome: assign((_, params: { text: string }) => ({ outcome: params.text })),
    clearAction: assign({ action: null, reason: '', outcome: null }),
    markStale: assign({ stale: true }),
    markRead: assign({ stale: false }),
    /** "Note added" (bound to the toaster). */
    notifyNoted: unboundAction<{ info: string }>('notifyNoted'),
  },
  guards: {
    /** The trader does not exist (404): "No trader by that name". */
    isMissing: (_, params: { error: unknown }) => refusalStatus(params.error) === 404,
    isStale: ({ context }) => context.stale,
    /** Suspend only one who is not suspended, reinstate only one who is (traderDossier.rules.ts). */
    canTake: unboundRule<{ action: TraderAction }>('canTake'),
    /** "Please write the reason" until it is (at most 1,000 characters). */
    isReasonWritten: unboundRule<{ reason: string }>('isReasonWritten'),
    /** "Please write the note" until it is (at most 2,000 characters). */
    isNoteWritten: unboundRule<{ text: string }>('isNoteWritten'),
  },
}).createMachine({
  id: 'traderDossier',
  description: 'One trader as an operator sees them, their notes, and the staff actions with a written reason.',
  context: ({ input }) => ({
    username: input.username,
    dossier: null,
    note: '',
    noteError: null,
    action: null,
    reason: '',
    outcome: null,
    stale: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      description: 'The first read: a spinner.',
      invoke: {
        ...readingTrader('loadTrader', 'open'),
        onError: [
          { guard: { type: 'isMissing', params: ({ event }) => ({ error: event.error }) }, target: 'missing' },
          { target: 'failed' },
        ],
      },
    },
    failed: { description: 'The read failed: a message and "Try again".', on: { 'dossier.retry': { target: 'loading' } } },
    missing: { description: '"No trader by that name" and the way back to the search.' },
    open: {
      description: 'The page: the facts, the notes and the staff actions, side by side.',
      type: 'parallel',
      states: {
        facts: {
          description: 'Balances, trades, sign-ins, devices, the suspension: read again after every change made here.',
          initial: 'current',
          states: {
            current: {
              description: 'As last read.',
              always: { guard: 'isStale', target: 'refreshing', description: 'A note or an action was taken (or refused) here.' },
            },
            refreshing: {
              description: 'Read again; the page stays meanwhile, and stays if the read fails.',
              entry: 'markRead',
              invoke: { ...readingTrader('refreshTrader', 'current'), onError: { target: 'current' } },
            },
          },
        },
        notes: {
          description: 'The notes, oldest first, and a form for one more (operators only ever read them).',
          initial: 'idle',
          on: { 'note.change': { actions: { type: 'setNote', params: ({ event }) => ({ value: event.value }) } } },
          states: {
            idle: {
              description: '"Add note" is enabled once something is written.',
              on: {
                'note.save': {
                  guard: { type: 'isNoteWritten', params: ({ context }) => ({ text: context.note }) },
                  target: 'saving',
                  description: 'A blank note is not sent.',
                },
              },
            },
            saving: {
              tags: ['busy'],
              description: '"Please wait...".',
              invoke: {
                id: 'addNote',
                src: 'addNote',
                input: ({ context }) => ({ username: context.username, text: context.note.trim() }),
                onDone: {
                  target: 'idle',
                  description: 'Stored: the form clears and the page is read again.',
                  actions: ['clearNote', 'markStale', { type: 'notifyNoted', params: ({ event }) => ({ info: event.output }) }],
                },
                onError: {
                  target: 'idle',
                  description: 'Refused: the server’s sentence under the form; the text stays.',
                  actions: { type: 'setNoteError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
          },
        },
        action: {
          description: 'Suspend, reinstate, force a password reset, end the sessions: choose, write the reason, confirm.',
          initial: 'idle',
          states: {
            idle: {
              description: 'The buttons that apply: Suspend or Reinstate, Force password reset, End sessions.',
              on: {
                'action.choose': {
                  guard: { type: 'canTake', params: ({ event }) => ({ action: event.action }) },
                  target: 'writing',
                  actions: { type: 'setAction', params: ({ event }) => ({ action: event.action }) },
                },
              },
            },
            writing: {
              tags: ['dialog'],
              description: 'The dialog asks for the reason; Continue stays disabled while it is blank ("Please write the reason").',
              on: writingReason({ change: 'reason.change', submit: 'reason.submit' }, 'confirming', closeDialog),
            },
            confirming: {
              tags: ['dialog'],
              description: 'What will happen, to whom, and the reason as written: Confirm, or back to the reason.',
              on: { 'action.confirm': { target: 'submitting' }, 'reason.edit': { target: 'writing' }, 'dialog.dismiss': closeDialog },
            },
            submitting: {
              tags: ['dialog', 'busy'],
              description: '"Please wait...": the dialog cannot be closed while the action runs.',
              invoke: {
                id: 'takeAction',
                src: 'takeAction',
                input: ({ context }) => ({ username: context.username, action: context.action!, reason: context.reason.trim() }),
                onDone: {
                  target: 'done',
                  description: 'Done: the server’s sentence, and the page read again.',
                  actions: [{ type: 'setOutcome', params: ({ event }) => ({ text: event.output }) }, 'markStale'],
                },
                onError: {
                  target: 'failed',
                  description: 'Refused: the server’s sentence in the dialog, and the page read again (it may have changed).',
                  actions: [{ type: 'setOutcome', params: ({ event }) => ({ text: refusalText(event.error) }) }, 'markStale'],
                },
              },
            },
            done: { tags: ['dialog'], description: 'The server’s sentence and "Close".', on: { 'dialog.dismiss': closeDialog } },
            failed: {
              tags: ['dialog'],
              description: 'The server’s sentence: try again, change the reason, or close.',
              on: { 'action.confirm': { target: 'submitting' }, 'reason.edit': { target: 'writing' }, 'dialog.dismiss': closeDialog },
            },
          },
        },
      },
    },
  },
});

export type TraderDossierLogic = typeof traderDossierMachine;

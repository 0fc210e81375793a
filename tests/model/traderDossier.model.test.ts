import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { TraderDossier } from '../../contracts/operator.ts';
import { bindTraderDossier } from '../../src/machines/traderDossier/traderDossier.actors.ts';
import type { TraderDossierContext } from '../../src/machines/traderDossier/traderDossier.machine.ts';
import {
  selectActionButtons,
  selectCanContinue,
  selectCanSaveNote,
  selectDialogStep,
  selectDossier,
  selectDossierView,
  selectOutcome,
} from '../../src/machines/traderDossier/traderDossier.selectors.ts';
import { Coverage, describeModel, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { operatorDeps, refusal, suspendedDossier, traderDossier } from '../support/operator.ts';

/**
 * One trader's page walked as it is: read (found, missing, failed), read again after each change, a note written
 * and stored or refused, and the suspension flow (choose, write the reason, confirm, done or refused, back to
 * the reason, closed) for suspending and reinstating. Notes are written while no dialog is open, and a dialog
 * is opened while no note is, which keeps the graph small and still takes every edge.
 */
const active = traderDossier();
const suspended = suspendedDossier();
const REASON = 'Stolen bank accounts';
const DONE = 'The trader is suspended.';
const REFUSED = 'This trader is already suspended.';
const on = (snapshot: AnyMachineSnapshot, value: object) => snapshot.matches(value as never);

/** What the server has once the action asked for went through (or not). */
const afterAction = (context: TraderDossierContext): TraderDossier =>
  context.action === 'suspend' ? suspended : context.action === 'reinstate' ? active : (context.dossier ?? active);

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as TraderDossierContext;
  const list: ModelEvent[] = [];
  if (snapshot.matches('loading')) {
    list.push(
      { type: 'xstate.done.actor.loadTrader', output: active },
      { type: 'xstate.error.actor.loadTrader', error: refusal(404, 'This trader does not exist.') },
      { type: 'xstate.error.actor.loadTrader', error: refusal(500, 'Internet server error') },
    );
  }
  if (snapshot.matches('failed')) list.push({ type: 'dossier.retry' });
  if (!snapshot.matches('open')) return list;

  if (on(snapshot, { open: { facts: 'refreshing' } })) {
    list.push(
      { type: 'xstate.done.actor.refreshTrader', output: afterAction(context) },
      { type: 'xstate.error.actor.refreshTrader', error: refusal(500, 'Internet server error') },
    );
  }
  const actionIdle = on(snapshot, { open: { action: 'idle' } });
  if (actionIdle) {
    if (on(snapshot, { open: { notes: 'idle' } })) list.push({ type: 'note.change', value: context.note === '' ? 'Asked for ID' : '' }, { type: 'note.save' });
    if (on(snapshot, { open: { notes: 'saving' } })) {
      list.push({ type: 'xstate.done.actor.addNote', output: 'Note added.' }, { type: 'xstate.error.actor.addNote', error: refusal(400, 'Please write the note') });
    }
  }
  if (!on(snapshot, { open: { notes: 'idle' } }) || context.note !== '') return list;
  const step = (name: string) => on(snapshot, { open: { action: name } });
  if (step('idle')) list.push({ type: 'action.choose', action: 'suspend' }, { type: 'action.choose', action: 'reinstate' });
  if (step('writing')) {
    list.push({ type: 'reason.change', value: context.reason === '' ? REASON : '' }, { type: 'reason.submit' }, { type: 'dialog.dismiss' });
  }
  if (step('confirming') || step('failed')) list.push({ type: 'action.confirm' }, { type: 'reason.edit' }, { type: 'dialog.dismiss' });
  if (step('submitting')) {
    list.push({ type: 'xstate.done.actor.takeAction', output: DONE }, { type: 'xstate.error.actor.takeAction', error: refusal(409, REFUSED) });
  }
  if (step('done')) list.push({ type: 'dialog.dismiss' });
  return list;
}

const walked = bindTraderDossier(operatorDeps().deps);
const model = walk(walked, { events, input: { username: 'bob' } });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadTrader', 'addNote', 'takeAction'] as const);
  const harness = operatorDeps();
  const machine = bindTraderDossier(harness.deps).provide({ actors: fakes.actors as never });
  const actor = createActor(machine, { input: { username: 'bob' }, inspect: coverage?.inspect }).start();

  // The oracle: what the operator sees, counted from the path's events.
  let view: 'loading' | 'failed' | 'missing' | 'open' = 'loading';
  let page: TraderDossier | null = null;
  let dialog: 'writing' | 'confirming' | 'submitting' | 'done' | 'failed' | null = null;
  let reason = '';
  let note = '';
  let outcome: string | null = null;
  let notes = 0;
  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'xstate.done.actor.loadTrader':
      case 'xstate.done.actor.refreshTrader':
        view = 'open';
        page = event.output as TraderDossier;
        break;
      case 'xstate.error.actor.loadTrader':
        view = (event.error as { status: number }).status === 404 ? 'missing' : 'failed';
        break;
      case 'dossier.retry':
        view = 'loading';
        break;
      case 'note.change':
        note = String(event.value);
        break;
      case 'xstate.done.actor.addNote':
        note = '';
        notes += 1;
        expect(fakes.isRunning('refreshTrader') || (snapshot.context as TraderDossierContext).stale, 'read again after a note').toBe(true);
        break;
      case 'action.choose':
        // Suspend only one who is active, reinstate only one who is suspended; never over an open dialog.
        if (dialog === null && (event.action === 'suspend') !== (page as TraderDossier | null)?.suspended) {
          dialog = 'writing';
          reason = '';
          outcome = null;
        }
        break;
      case 'reason.change':
        reason = String(event.value);
        break;
      case 'reason.submit':
        if (reason.trim() !== '') dialog = 'confirming';
        break;
      case 'reason.edit':
        dialog = 'writing';
        break;
      case 'action.confirm':
        dialog = 'submitting';
        // The reason asked with is the one written, for the trader the page is about.
        expect(fakes.calls.at(-1)?.input, 'the action asked for').toMatchObject({ username: 'bob', reason });
        break;
      case 'xstate.done.actor.takeAction':
      case 'xstate.error.actor.takeAction': {
        const done = event.type.startsWith('xstate.done');
        dialog = done ? 'done' : 'failed';
        outcome = done ? DONE : REFUSED;
        // Done or refused, the page is read again: it may have changed.
        expect(fakes.isRunning('refreshTrader') || (snapshot.context as TraderDossierContext).stale, 'read again after an action').toBe(true);
        break;
      }
      case 'dialog.dismiss':
        dialog = null;
        reason = '';
        outcome = null;
        break;
    }
    const s = snapshot as never;
    expect(selectDossierView(s), 'view').toBe(view);
    expect(selectDossier(s), 'page').toBe(page);
    expect(selectDialogStep(s), 'dialog').toBe(dialog);
    expect(selectOutcome(s), 'the server’s sentence').toBe(outcome);
    expect(selectCanContinue(s), 'Continue').toBe(dialog === 'writing' && reason.trim() !== '');
    expect(selectCanSaveNote(s), 'Add note').toBe(view === 'open' && note.trim() !== '' && !fakes.isRunning('addNote'));
    // Suspend for an active trader, Reinstate for a suspended one, never both; enabled while no dialog is open.
    const buttons = selectActionButtons(s);
    if (page) {
      expect(buttons.map((button) => button.action)).toEqual([(page as TraderDossier).suspended ? 'reinstate' : 'suspend', 'force_password_reset', 'end_sessions']);
      expect(buttons.every((button) => button.enabled === (dialog === null && view === 'open'))).toBe(true);
    }
    expect(harness.notices, 'toasts').toHaveLength(notes);
  });
  actor.stop();
}

describeModel('trader dossier', walked, model, 30, run);

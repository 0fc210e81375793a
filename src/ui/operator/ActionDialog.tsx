import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import {
  actionTexts,
  selectCanContinue,
  selectChosenAction,
  selectDialogStep,
  selectDossier,
  selectOutcome,
  selectReason,
  selectReasonError,
} from '../../machines/traderDossier/traderDossier.selectors.ts';
import { ChartDialog, WrittenTextForm } from '../chat/ChartDialog.tsx';
import { Button } from '../primitives/Button.tsx';
import { dialogStyles } from '../primitives/dialogStyles.ts';
import { dialogNote } from './styles.ts';
import type { DossierRef } from './types.ts';

const { actions } = dialogStyles;
// Three buttons: on a phone they wrap, the one that acts staying last.
const steps = css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: '2' });
const quote = css({
  p: '3',
  borderRadius: 'md',
  bg: 'bg.muted',
  fontSize: 'sm',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  maxH: '40',
  overflowY: 'auto',
});
const label = css({ fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: '0.04em', mb: '1' });
const failed = dialogNote({ tone: 'danger' });
const done = dialogNote({ tone: 'success' });

/**
 * A staff action on a trader, in steps the chart keeps: the written reason, the confirmation (what happens, to
 * whom, the reason as written), "Please wait...", then the server's sentence, done or refused.
 */
export function ActionDialog({ actor }: { actor: DossierRef }) {
  const step = useSelector(actor, selectDialogStep);
  const action = useSelector(actor, selectChosenAction);
  const username = useSelector(actor, (snapshot) => selectDossier(snapshot)?.username ?? '');
  const reason = useSelector(actor, selectReason);
  const problem = useSelector(actor, selectReasonError);
  const canContinue = useSelector(actor, selectCanContinue);
  const outcome = useSelector(actor, selectOutcome);
  const dismiss = () => actor.send({ type: 'dialog.dismiss' });
  const texts = action ? actionTexts[action] : null;
  const variant = action === 'reinstate' ? 'buy' : 'destructive';
  const busy = step === 'submitting';
  return (
    <ChartDialog open={step !== null && texts !== null} onDismiss={dismiss} heading={texts?.heading ?? ''} text={texts?.effect(username)}>
      {step === 'writing' ? (
        <WrittenTextForm
          label="Reason"
          name="reason"
          placeholder="Why, in a few words. It is kept in the audit log."
          value={reason}
          problem={problem}
          invalid={Boolean(problem) && reason !== ''}
          busy={false}
          canSubmit={canContinue}
          submitLabel="Continue"
          variant={variant}
          onChange={(value) => actor.send({ type: 'reason.change', value })}
          onSubmit={() => actor.send({ type: 'reason.submit' })}
          onCancel={dismiss}
        />
      ) : step === 'done' ? (
        <>
          <p className={done} role="status">
            {outcome}
          </p>
          <div className={actions}>
            <Button onClick={dismiss}>Close</Button>
          </div>
        </>
      ) : (
        <>
          <div>
            <p className={label}>Reason</p>
            <p className={quote} data-reason>
              {reason.trim()}
            </p>
          </div>
          {step === 'failed' ? (
            <p className={failed} role="alert">
              {outcome}
            </p>
          ) : null}
          <div className={steps}>
            {busy ? null : (
              <>
                <Button variant="ghost" onClick={dismiss}>
                  Cancel
                </Button>
                <Button variant="outline" onClick={() => actor.send({ type: 'reason.edit' })}>
                  Edit reason
                </Button>
              </>
            )}
            <Button variant={variant} disabled={busy} aria-busy={busy} onClick={() => actor.send({ type: 'action.confirm' })}>
              {busy ? 'Please wait...' : step === 'failed' ? 'Try again' : texts?.label}
            </Button>
          </div>
        </>
      )}
    </ChartDialog>
  );
}

import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { css, cx } from 'styled-system/css';
import {
  selectCanConfirm,
  selectCanDecide,
  selectDecisionError,
  selectDialog,
  selectIsRefreshing,
  selectIsSubmitting,
  selectNotice,
  selectQueueView,
  selectReason,
  selectReasonError,
  selectThreshold,
  selectWithdrawals,
} from '../../machines/reviewQueue/reviewQueue.selectors.ts';
import { ChartDialog, DialogActions, WrittenTextForm } from '../chat/ChartDialog.tsx';
import { ColumnFailed, ColumnLoading } from '../chat/SplitView.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { Button } from '../primitives/Button.tsx';
import { callout, factList } from '../primitives/boxes.ts';
import { coinAmount, formatMoment, usd } from './format.ts';
import { DataTable, type Column } from '../primitives/DataTable.tsx';
import { dialogNote, link, placeholder } from './styles.ts';
import type { ReviewQueueRef } from './types.ts';

const body = css({ mt: '6' });
const notice = cx(
  callout({ tone: 'warning' }),
  css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', mt: '6', p: '3' }),
);
const columns: Column[] = [
  { label: 'Confirmed', nowrap: true },
  { label: 'Trader', nowrap: true },
  { label: 'Amount', numeric: true },
  { label: 'Worth', numeric: true },
  { label: 'Network', nowrap: true },
  { label: 'To', long: true },
  { label: 'Decision' },
];
const rowActions = css({ display: 'flex', gap: '2' });
const summary = cx(
  factList,
  css({ gridTemplateColumns: 'auto 1fr', rowGap: '1', '& dd': { overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' } }),
);
const refused = dialogNote({ tone: 'danger' });

/** /operator/reviews: large withdrawals waiting for a second look, oldest first, each approved or rejected. */
export function ReviewQueueScreen({ actor }: { actor: ReviewQueueRef }) {
  const view = useSelector(actor, selectQueueView);
  const withdrawals = useSelector(actor, selectWithdrawals);
  const threshold = useSelector(actor, selectThreshold);
  const refreshing = useSelector(actor, selectIsRefreshing);
  const canDecide = useSelector(actor, selectCanDecide);
  const said = useSelector(actor, selectNotice);
  return (
    <section aria-busy={refreshing || view === 'loading'}>
      <PageHeader
        title="Withdrawal review"
        subtitle={
          threshold === null
            ? 'Withdrawals at or above the review threshold wait here for an operator.'
            : `Withdrawals of ${usd(threshold)} or more wait here for an operator: approve one to send it, or reject it with a reason to return the amount.`
        }
      />
      {said ? (
        <div className={notice} role="status">
          <span>{said}</span>
          <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'notice.dismiss' })}>
            Dismiss
          </Button>
        </div>
      ) : null}
      <div className={body}>
        {view === 'loading' ? (
          <ColumnLoading className={placeholder} label="Loading the review queue" />
        ) : view === 'failed' ? (
          <ColumnFailed className={placeholder} text="The review queue could not be loaded." onRetry={() => actor.send({ type: 'queue.retry' })} />
        ) : (
          <DataTable
            columns={columns}
            empty="Nothing waits for review."
            rows={withdrawals.map((withdrawal) => ({
              key: withdrawal.id,
              data: { 'data-withdrawal': withdrawal.id },
              cells: [
                formatMoment(withdrawal.created),
                <Link key="trader" to="/operator/{-$section}/{-$username}" params={{ section: 'traders', username: withdrawal.username }} className={link}>
                  {withdrawal.username}
                </Link>,
                coinAmount(withdrawal.amount, withdrawal.decimal_places, withdrawal.ticker),
                usd(withdrawal.amount_usd),
                withdrawal.network,
                withdrawal.recipient,
                <div key="decision" className={rowActions}>
                  <Button size="sm" variant="buy" disabled={!canDecide} onClick={() => actor.send({ type: 'review.approve', id: withdrawal.id })}>
                    Approve
                  </Button>
                  <Button size="sm" variant="destructive" disabled={!canDecide} onClick={() => actor.send({ type: 'review.reject', id: withdrawal.id })}>
                    Reject
                  </Button>
                </div>,
              ],
            }))}
          />
        )}
      </div>
      <DecisionDialog actor={actor} />
    </section>
  );
}

/** Approve (a confirmation) or reject (a written reason the trader reads); the server's refusal shows inside. */
function DecisionDialog({ actor }: { actor: ReviewQueueRef }) {
  const dialog = useSelector(actor, selectDialog);
  const reason = useSelector(actor, selectReason);
  const problem = useSelector(actor, selectReasonError);
  const error = useSelector(actor, selectDecisionError);
  const canConfirm = useSelector(actor, selectCanConfirm);
  const busy = useSelector(actor, selectIsSubmitting);
  const dismiss = () => actor.send({ type: 'dialog.dismiss' });
  const withdrawal = dialog?.withdrawal ?? null;
  const approve = dialog?.decision === 'approve';
  return (
    <ChartDialog
      open={dialog !== null}
      onDismiss={dismiss}
      heading={approve ? 'Approve this withdrawal' : 'Reject this withdrawal'}
      text={
        approve
          ? 'It goes on to the chain as the trader asked. It cannot be called back.'
          : 'The amount returns to the trader’s balance; they read your reason.'
      }
    >
      {withdrawal ? (
        <dl className={summary}>
          <dt>Trader</dt>
          <dd>{withdrawal.username}</dd>
          <dt>Amount</dt>
          <dd>
            {coinAmount(withdrawal.amount, withdrawal.decimal_places, withdrawal.ticker)} ({usd(withdrawal.amount_usd)})
          </dd>
          <dt>Network</dt>
          <dd>{withdrawal.network}</dd>
          <dt>To</dt>
          <dd>{withdrawal.recipient}</dd>
        </dl>
      ) : null}
      {error ? (
        <p className={refused} role="alert">
          {error}
        </p>
      ) : null}
      {approve ? (
        <DialogActions busy={busy} onCancel={dismiss}>
          <Button variant="buy" disabled={!canConfirm || busy} aria-busy={busy} onClick={() => actor.send({ type: 'decision.confirm' })}>
            {busy ? 'Please wait...' : 'Approve'}
          </Button>
        </DialogActions>
      ) : (
        <WrittenTextForm
          label="Reason"
          name="reason"
          placeholder="Why it is rejected. The trader reads it."
          value={reason}
          problem={problem}
          invalid={Boolean(problem) && reason !== ''}
          busy={busy}
          canSubmit={canConfirm}
          submitLabel="Reject"
          variant="destructive"
          onChange={(value) => actor.send({ type: 'reason.change', value })}
          onSubmit={() => actor.send({ type: 'decision.confirm' })}
          onCancel={dismiss}
        />
      )}
    </ChartDialog>
  );
}

import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { SignInEntry } from '../../../contracts/account-protections.ts';
import type { signInHistoryMachine } from '../../machines/signInHistory/signInHistory.machine.ts';
import {
  selectCanConfirm,
  selectCanSignOutOthers,
  selectIsBusy,
  selectIsDialogOpen,
  selectMessage,
  selectSessions,
  selectView,
} from '../../machines/signInHistory/signInHistory.selectors.ts';
import { ChartDialog, DialogActions } from '../chat/ChartDialog.tsx';
import { Button } from '../primitives/Button.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { ProtectionCard } from './parts.tsx';
import { securityStyles as s } from './styles.ts';
import { RelativeTime } from './time.tsx';

export const signInHistoryTexts = {
  title: 'Sign-in history',
  lead: 'Where and when your account was signed in. If you do not recognise one, sign out everywhere else and change your password.',
  failure: 'The sign-in history could not be loaded.',
  signOutOthers: 'Sign out everywhere else',
  confirmTitle: 'Sign out everywhere else?',
  confirmText: 'Every other browser and device signed in to your account is signed out. This one stays signed in.',
  unknownAddress: 'unknown address',
  unknownDevice: 'Unknown device',
  current: 'This is you',
  active: 'Active',
  signedOut: 'Signed out',
} as const;

type SignInHistoryActor = ActorRefFrom<typeof signInHistoryMachine>;

/** The sign-in history (newest first) and "Sign out everywhere else" with its confirmation. */
export function SignInHistoryCard({ actor }: { actor: SignInHistoryActor }) {
  const view = useSelector(actor, selectView);
  const message = useSelector(actor, selectMessage);
  const canSignOutOthers = useSelector(actor, selectCanSignOutOthers);
  return (
    <ProtectionCard
      id="sign-in-history-title"
      texts={signInHistoryTexts}
      view={view}
      onRetry={() => actor.send({ type: 'history.retry' })}
      action={
        view === 'list' ? (
          <Button variant="outline" onClick={() => actor.send({ type: 'signOutOthers.start' })} disabled={!canSignOutOthers}>
            {signInHistoryTexts.signOutOthers}
          </Button>
        ) : null
      }
    >
      {message ? (
        <p className={s.notice} role="status">
          {message}
        </p>
      ) : null}
      {view === 'list' ? <SignIns actor={actor} /> : null}
      <SignOutOthersDialog actor={actor} />
    </ProtectionCard>
  );
}

function SignIns({ actor }: { actor: SignInHistoryActor }) {
  const sessions = useSelector(actor, selectSessions);
  const busy = useSelector(actor, selectIsBusy);
  return (
    <ul className={s.list} aria-label="Sign-ins" aria-busy={busy}>
      {sessions.map((entry) => (
        <SignInRow key={entry.id} entry={entry} />
      ))}
    </ul>
  );
}

function SignOutOthersDialog({ actor }: { actor: SignInHistoryActor }) {
  const open = useSelector(actor, selectIsDialogOpen);
  const busy = useSelector(actor, selectIsBusy);
  const canConfirm = useSelector(actor, selectCanConfirm);
  return (
    <ChartDialog
      open={open}
      role="alertdialog"
      onDismiss={() => actor.send({ type: 'dialog.dismiss' })}
      heading={signInHistoryTexts.confirmTitle}
      text={signInHistoryTexts.confirmText}
    >
      <DialogActions busy={busy} onCancel={() => actor.send({ type: 'dialog.dismiss' })}>
        <Button variant="destructive" onClick={() => actor.send({ type: 'signOutOthers.confirm' })} disabled={!canConfirm} aria-busy={busy}>
          {busy ? 'Please wait...' : signInHistoryTexts.signOutOthers}
        </Button>
      </DialogActions>
    </ChartDialog>
  );
}

function SignInRow({ entry }: { entry: SignInEntry }) {
  return (
    <li className={s.row} data-current={entry.current} data-active={entry.active}>
      <div className={s.rowMain}>
        <span className={s.rowTitle}>{entry.device || signInHistoryTexts.unknownDevice}</span>
        <span className={s.muted}>
          <RelativeTime iso={entry.created} /> · {entry.ip || signInHistoryTexts.unknownAddress}
        </span>
      </div>
      <div className={s.badges}>
        {entry.current ? <Badge tone="info">{signInHistoryTexts.current}</Badge> : null}
        <Badge tone={entry.active ? 'success' : 'neutral'}>{entry.active ? signInHistoryTexts.active : signInHistoryTexts.signedOut}</Badge>
      </div>
    </li>
  );
}

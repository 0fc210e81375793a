import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { ANTI_PHISHING_CODE_RULES } from '../../../contracts/account-protections.ts';
import type { AntiPhishingField, antiPhishingMachine } from '../../machines/antiPhishing/antiPhishing.machine.ts';
import {
  selectCanRemove,
  selectCanSubmit,
  selectCodeProblem,
  selectCurrentCode,
  selectIsBusy,
  selectRemoval,
  selectView,
} from '../../machines/antiPhishing/antiPhishing.selectors.ts';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { CurrentPasswordField, FormButtons, PasswordConfirmForm, ProtectionCard } from './parts.tsx';
import { securityStyles as s } from './styles.ts';

export const antiPhishingTexts = {
  title: 'Anti-phishing code',
  lead: 'Every mail from Peerex will show this code. A mail without it is not from us.',
  failure: 'The anti-phishing code could not be loaded.',
  none: 'No code set',
  set: 'Set a code',
  change: 'Change code',
  remove: 'Remove code',
  save: 'Save code',
  confirmRemove: 'Remove code',
  removeLead: 'Enter your password to remove the code. Mails from Peerex will then carry no code.',
} as const;

type AntiPhishingActor = ActorRefFrom<typeof antiPhishingMachine>;

/** The anti-phishing code: the current one, a form to set it, and its removal; each change asks for the password. */
export function AntiPhishingCard({ actor }: { actor: AntiPhishingActor }) {
  const view = useSelector(actor, selectView);
  const removal = useSelector(actor, selectRemoval);
  return (
    <ProtectionCard id="anti-phishing-title" texts={antiPhishingTexts} view={view} onRetry={() => actor.send({ type: 'status.retry' })}>
      {view === 'showing' ? <CurrentCode actor={actor} /> : null}
      {view === 'setting' ? <CodeForm actor={actor} /> : null}
      {view === 'removing' ? (
        <PasswordConfirmForm actor={removal} lead={antiPhishingTexts.removeLead} submitLabel={antiPhishingTexts.confirmRemove} variant="destructive" />
      ) : null}
    </ProtectionCard>
  );
}

/** The code mails carry now (or none), with setting a new one and removing it. */
function CurrentCode({ actor }: { actor: AntiPhishingActor }) {
  const current = useSelector(actor, selectCurrentCode);
  const canRemove = useSelector(actor, selectCanRemove);
  return (
    <div className={s.form}>
      <p data-testid="anti-phishing-code">
        {current === null ? <span className={s.muted}>{antiPhishingTexts.none}</span> : <strong className={s.mono}>{current}</strong>}
      </p>
      <div className={s.actions}>
        <Button variant="outline" onClick={() => actor.send({ type: 'set.start' })}>
          {current === null ? antiPhishingTexts.set : antiPhishingTexts.change}
        </Button>
        {canRemove ? (
          <Button variant="ghost" onClick={() => actor.send({ type: 'clear.start' })}>
            {antiPhishingTexts.remove}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** A new code and the password that confirms it. */
function CodeForm({ actor }: { actor: AntiPhishingActor }) {
  const busy = useSelector(actor, selectIsBusy);
  const canSubmit = useSelector(actor, selectCanSubmit);
  const problem = useSelector(actor, selectCodeProblem);
  const { draft, password } = useSelector(actor, (state) => state.context);
  const change = (name: AntiPhishingField) => (value: string) => actor.send({ type: 'field.change', name, value });
  return (
    <Form className={s.form} onSubmit={() => actor.send({ type: 'form.submit' })}>
      <TextField
        label="New anti-phishing code"
        name="anti_phishing_code"
        value={draft}
        onValueChange={change('antiPhishingCode')}
        maxLength={ANTI_PHISHING_CODE_RULES.max}
        autoComplete="off"
        spellCheck={false}
        error={problem}
        helperText={`${ANTI_PHISHING_CODE_RULES.min} to ${ANTI_PHISHING_CODE_RULES.max} letters, digits, spaces, - or _`}
        autoFocus
      />
      <CurrentPasswordField value={password} onValueChange={change('password')} />
      <FormButtons submitLabel={antiPhishingTexts.save} canSubmit={canSubmit} busy={busy} onCancel={() => actor.send({ type: 'form.cancel' })} />
    </Form>
  );
}

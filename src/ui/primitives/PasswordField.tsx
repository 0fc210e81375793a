import { Field } from '@ark-ui/react/field';
import { useLingui } from '@lingui/react/macro';
import { PasswordInput } from '@ark-ui/react/password-input';
import { css, cx } from 'styled-system/css';
import { EyeIcon, EyeOffIcon } from './icons.tsx';
import { iconButton } from './looks.ts';
import { fieldStyles } from './TextField.tsx';

export type PasswordFieldProps = {
  label: string;
  name: string;
  value: string;
  error?: string;
  autoComplete?: 'current-password' | 'new-password';
  onValueChange: (value: string) => void;
};

const control = css({ position: 'relative', display: 'flex', alignItems: 'center' });
const toggle = cx(iconButton, css({ position: 'absolute', insetInlineEnd: '1', h: '8', w: '8', borderRadius: 'md', color: 'fg.muted', _hover: { color: 'fg' } }));

/** A password input with a show/hide toggle, so a trader can check what they typed. */
export function PasswordField({ label, name, value, error, autoComplete, onValueChange }: PasswordFieldProps) {
  const { t } = useLingui();
  const field = label.toLowerCase();
  return (
    <Field.Root className={fieldStyles.root} invalid={Boolean(error)}>
      <PasswordInput.Root autoComplete={autoComplete} className={fieldStyles.root}>
        <PasswordInput.Label className={fieldStyles.label}>{label}</PasswordInput.Label>
        <PasswordInput.Control className={control}>
          <PasswordInput.Input
            name={name}
            value={value}
            onChange={(event) => onValueChange(event.currentTarget.value)}
            className={cx(fieldStyles.input, css({ paddingInlineEnd: '10' }))}
          />
          <PasswordInput.VisibilityTrigger className={toggle} aria-label={t`Show or hide ${field}`}>
            <PasswordInput.Indicator fallback={<EyeOffIcon />}>
              <EyeIcon />
            </PasswordInput.Indicator>
          </PasswordInput.VisibilityTrigger>
        </PasswordInput.Control>
      </PasswordInput.Root>
      <Field.ErrorText className={fieldStyles.error}>{error}</Field.ErrorText>
    </Field.Root>
  );
}

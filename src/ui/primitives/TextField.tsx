import { Field } from '@ark-ui/react/field';
import type { InputHTMLAttributes } from 'react';
import { css } from 'styled-system/css';

export const fieldStyles = {
  root: css({ display: 'flex', flexDirection: 'column', gap: '1.5', width: '100%' }),
  label: css({ fontSize: 'sm', fontWeight: 'medium', color: 'fg' }),
  input: css({
    h: '10',
    px: '3',
    width: '100%',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'border',
    bg: 'bg.surface',
    color: 'fg',
    fontSize: 'sm',
    _placeholder: { color: 'fg.subtle' },
    _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '0' },
    // Only what the form's rules found (Ark's data-invalid), not CSS's :invalid, which an empty `required` field
    // matches before anyone has typed: a form must not open red.
    '&[data-invalid]': { borderColor: 'danger' },
    // Not `_readOnly`: CSS counts every button (a select's trigger) as :read-only.
    '&:is(input, textarea):read-only': { bg: 'bg.muted', color: 'fg.muted' },
  }),
  error: css({ fontSize: 'xs', color: 'danger' }),
  helper: css({ fontSize: 'xs', color: 'fg.muted' }),
};

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: string;
  name: string;
  error?: string;
  helperText?: string;
  onValueChange?: (value: string) => void;
};

/** A labelled input with its inline message (the validation texts arrive as `error`). */
export function TextField({ label, error, helperText, onValueChange, readOnly, ...input }: TextFieldProps) {
  return (
    <Field.Root className={fieldStyles.root} invalid={Boolean(error)} readOnly={readOnly}>
      <Field.Label className={fieldStyles.label}>{label}</Field.Label>
      <Field.Input
        className={fieldStyles.input}
        onChange={(event) => onValueChange?.(event.currentTarget.value)}
        {...input}
      />
      {helperText && !error ? <Field.HelperText className={fieldStyles.helper}>{helperText}</Field.HelperText> : null}
      <Field.ErrorText className={fieldStyles.error}>{error}</Field.ErrorText>
    </Field.Root>
  );
}

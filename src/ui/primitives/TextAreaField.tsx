import { Field } from '@ark-ui/react/field';
import type { TextareaHTMLAttributes } from 'react';
import { cx } from 'styled-system/css';
import { fieldStyles } from './TextField.tsx';

export type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange'> & {
  label: string;
  name: string;
  error?: string;
  helperText?: string;
  onValueChange: (value: string) => void;
};

/** A labelled box for text of several lines with its inline message, as TextField is for one line; `className` sizes the box. */
export function TextAreaField({ label, error, helperText, onValueChange, className, disabled, ...textarea }: TextAreaFieldProps) {
  return (
    <Field.Root className={fieldStyles.root} invalid={Boolean(error)} disabled={disabled}>
      <Field.Label className={fieldStyles.label}>{label}</Field.Label>
      <Field.Textarea className={cx(fieldStyles.input, className)} onChange={(event) => onValueChange(event.currentTarget.value)} {...textarea} />
      {helperText && !error ? <Field.HelperText className={fieldStyles.helper}>{helperText}</Field.HelperText> : null}
      <Field.ErrorText className={fieldStyles.error}>{error}</Field.ErrorText>
    </Field.Root>
  );
}

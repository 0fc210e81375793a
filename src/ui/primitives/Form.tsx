import type { FormHTMLAttributes } from 'react';

/**
 * A form whose submit is an event for the screen's chart (`onSubmit`): the browser neither sends nor validates it,
 * the chart's rules decide.
 */
export function Form({ onSubmit, ...form }: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate'> & { onSubmit: () => void }) {
  return (
    <form
      {...form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    />
  );
}

import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { Form } from '../primitives/Form.tsx';
import { cardStyle } from '../primitives/Card.tsx';

const page = css({
  minH: 'calc(100vh - 4rem)',
  display: 'flex',
  alignItems: { base: 'flex-start', sm: 'center' },
  justifyContent: 'center',
  px: '4',
  py: { base: '6', sm: '10' },
});
const card = css({ width: '100%', maxW: 'md', display: 'flex', flexDirection: 'column', gap: '5' });
const heading = css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: '-0.02em' });
const lead = css({ color: 'fg.muted', fontSize: 'sm', mt: '1' });
export const formStyle = css({ display: 'flex', flexDirection: 'column', gap: '4' });
export const footerStyle = css({ fontSize: 'sm', color: 'fg.muted', textAlign: 'center' });
export const linkStyle = css({ color: 'accent', fontWeight: 'medium', _hover: { textDecoration: 'underline' } });
export const fullWidth = css({ width: '100%' });

export function AuthCard({
  title,
  lead: leadText,
  onSubmit,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  onSubmit: () => void;
  children: ReactNode;
  footer?: ReactNode;
}) {
  // The page's main landmark: the signed-out pages have no shell around them to hold one.
  return (
    <main className={page}>
      <div className={`${cardStyle} ${card}`}>
        <div>
          <h1 className={heading}>{title}</h1>
          {leadText ? <p className={lead}>{leadText}</p> : null}
        </div>
        <Form className={formStyle} onSubmit={onSubmit}>
          {children}
        </Form>
        {footer ? <div className={footerStyle}>{footer}</div> : null}
      </div>
    </main>
  );
}

/** An auth card's main button, the card's width: `busyLabel` while the flow works, and disabled then or while `disabled`. */
export function SubmitButton({ busy, busyLabel, label, disabled = false }: { busy: boolean; busyLabel: string; label: string; disabled?: boolean }) {
  return (
    <Button type="submit" className={fullWidth} disabled={disabled || busy}>
      {busy ? busyLabel : label}
    </Button>
  );
}

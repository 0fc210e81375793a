import { Trans } from '@lingui/react/macro';
import { css } from 'styled-system/css';
import { ButtonLink } from '../primitives/Button.tsx';

const wrap = css({
  minH: '60vh',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '4',
  textAlign: 'center',
  px: '4',
});
const code = css({ fontSize: '6xl', fontWeight: 'bold', color: 'accent', lineHeight: '1' });
const heading = css({ fontSize: '2xl', fontWeight: 'bold' });
const detail = css({ color: 'fg.muted', maxW: 'lg', wordBreak: 'break-word' });

export function NotFoundPage() {
  return (
    <main className={wrap}>
      <p className={code}>404</p>
      <h1 className={heading}>
        <Trans>Oops! Page not found</Trans>
      </h1>
      <ButtonLink to="/">
        <Trans>Go back home</Trans>
      </ButtonLink>
    </main>
  );
}

/** An unexpected render error: a fixed heading, then the error's status text or message. */
export function ErrorPage({ error }: { error: unknown }) {
  const failure = error as { statusText?: string; message?: string } | null;
  const text = failure?.statusText || failure?.message || String(error);
  return (
    <main className={wrap} role="alert">
      <h1 className={heading}>
        <Trans>Unexpected Application Error!</Trans>
      </h1>
      <p className={detail}>{text}</p>
    </main>
  );
}

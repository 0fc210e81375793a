import { Trans, useLingui } from '@lingui/react/macro';
import { css, cx } from 'styled-system/css';
import { ButtonLink } from '../primitives/Button.tsx';
import { LocalePicker } from './LocalePicker.tsx';
import { Logo } from './Logo.tsx';
import { bar, inner, right } from './navStyles.ts';

/** Signed out: the language, Login and Sign Up (without the links, the bar's placeholder while the signed-in one loads). */
export function SignedOutNav({ links = true }: { links?: boolean }) {
  const { t } = useLingui();
  return (
    <header className={bar}>
      <nav className={cx(inner, css({ gap: { base: '3', sm: '6' } }))} aria-label={t`Main`}>
        <Logo compact={links} />
        {links ? (
          <div className={right}>
            <LocalePicker />
            <ButtonLink to="/login" variant="ghost" size="sm">
              <Trans>Login</Trans>
            </ButtonLink>
            <ButtonLink to="/signup" size="sm">
              <Trans>Sign Up</Trans>
            </ButtonLink>
          </div>
        ) : null}
      </nav>
    </header>
  );
}

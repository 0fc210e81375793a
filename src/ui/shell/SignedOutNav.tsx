import { Trans, useLingui } from '@lingui/react/macro';
import { ButtonLink } from '../primitives/Button.tsx';
import { LocalePicker } from './LocalePicker.tsx';
import { Logo } from './Logo.tsx';
import { bar, inner, right } from './navStyles.ts';

/** Signed out: the language, Login and Sign Up (without the links, the bar's placeholder while the signed-in one loads). */
export function SignedOutNav({ links = true }: { links?: boolean }) {
  const { t } = useLingui();
  return (
    <header className={bar}>
      <nav className={inner} aria-label={t`Main`}>
        <Logo />
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

import { ButtonLink } from '../primitives/Button.tsx';
import { Logo } from './Logo.tsx';
import { bar, inner, right } from './navStyles.ts';

/** Signed out: Login and Sign Up (without them, the bar's placeholder while the signed-in one loads). */
export function SignedOutNav({ links = true }: { links?: boolean }) {
  return (
    <header className={bar}>
      <nav className={inner} aria-label="Main">
        <Logo />
        {links ? (
          <div className={right}>
            <ButtonLink to="/login" variant="ghost" size="sm">
              Login
            </ButtonLink>
            <ButtonLink to="/signup" size="sm">
              Sign Up
            </ButtonLink>
          </div>
        ) : null}
      </nav>
    </header>
  );
}

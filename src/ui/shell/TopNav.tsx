import { Collapsible } from '@ark-ui/react/collapsible';
import { Link } from '@tanstack/react-router';
import { css, cx } from 'styled-system/css';
import { NotificationsBell, type NotificationsRef } from '../notifications/NotificationsBell.tsx';
import { MenuIcon } from '../primitives/icons.tsx';
import { iconButton } from '../primitives/looks.ts';
import { Logo } from './Logo.tsx';
import { bar, inner, right } from './navStyles.ts';
import { ProfileMenu } from './ProfileMenu.tsx';

export const navLinks = [
  { to: '/', label: 'Dashboard' },
  { to: '/offers', label: 'Offers' },
  { to: '/wallets', label: 'Wallets' },
  { to: '/trades', label: 'Trades' },
  { to: '/chat', label: 'Chat' },
] as const;

/** Moderators' own page: the dispute desk. */
export const moderatorLinks = [{ to: '/moderation', label: 'Disputes' }] as const;

/** An operator trades nothing: their bar is the console's pages instead of the trading ones. */
export const operatorLinks = [
  { to: '/operator/{-$section}/{-$username}', params: { section: undefined, username: undefined }, label: 'Overview' },
  { to: '/operator/{-$section}/{-$username}', params: { section: 'traders' }, label: 'Traders' },
  { to: '/operator/{-$section}/{-$username}', params: { section: 'reviews' }, label: 'Reviews' },
  { to: '/operator/{-$section}/{-$username}', params: { section: 'audit' }, label: 'Audit log' },
] as const;

type Role = 'trader' | 'moderator' | 'operator' | undefined;
const linksOf = (role: Role) => (role === 'operator' ? operatorLinks : role === 'moderator' ? [...navLinks, ...moderatorLinks] : navLinks);

const desktopLinks = css({ display: { base: 'none', md: 'flex' }, gap: '1', flex: '1' });
const linkStyle = css({
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  textDecoration: 'none',
  _hover: { color: 'fg', bg: 'bg.muted' },
  '&[data-status=active]': { color: 'accent', bg: 'accent.subtle' },
});
const menuToggle = cx(iconButton, css({ display: { base: 'inline-flex', md: 'none' }, h: '10', w: '10', borderRadius: 'md', color: 'fg' }));
const mobileLinks = css({
  display: { base: 'flex', md: 'none' },
  flexDirection: 'column',
  gap: '1',
  px: '4',
  pb: '3',
});
const spacer = css({ flex: '1', display: { base: 'block', md: 'none' } });

function NavLinks({ role, onNavigate }: { role: Role; onNavigate?: () => void }) {
  return linksOf(role).map((item) => (
    <Link
      key={item.label}
      to={item.to}
      params={'params' in item ? item.params : undefined}
      className={linkStyle}
      // A trader's page of the console is still under "Traders"; every other link is active on its page alone.
      activeOptions={{ exact: item.label !== 'Traders', includeSearch: false }}
      onClick={onNavigate}
    >
      {item.label}
    </Link>
  ));
}

/**
 * Signed in: the product's links (a toggleable menu on small screens), "Disputes" for a moderator, the console's
 * pages instead for an operator, the bell and the profile menu.
 */
export function SignedInNav({
  initial,
  notifications,
  onLogout,
  role,
}: {
  initial: string;
  notifications: NotificationsRef;
  onLogout: () => void;
  role?: Role;
}) {
  return (
    <Collapsible.Root className={bar} lazyMount unmountOnExit>
      <nav className={inner} aria-label="Main">
        <Collapsible.Trigger className={menuToggle} aria-label="Toggle navigation menu">
          <MenuIcon />
        </Collapsible.Trigger>
        <Logo />
        <div className={desktopLinks}>
          <NavLinks role={role} />
        </div>
        <div className={spacer} />
        <div className={right}>
          <NotificationsBell actor={notifications} />
          <ProfileMenu initial={initial} onLogout={onLogout} wallets={role !== 'operator'} />
        </div>
      </nav>
      <Collapsible.Content>
        <Collapsible.Context>
          {(collapsible) => (
            <div className={mobileLinks}>
              <NavLinks role={role} onNavigate={() => collapsible.setOpen(false)} />
            </div>
          )}
        </Collapsible.Context>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

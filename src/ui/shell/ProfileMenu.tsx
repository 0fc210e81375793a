import { Menu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import { useRouter } from '@tanstack/react-router';
import { css, cx } from 'styled-system/css';
import { floatingItem, floatingPanel, focusRing, initialAvatar } from '../primitives/looks.ts';
import { Tooltip } from '../primitives/Tooltip.tsx';

const avatar = cx(initialAvatar, focusRing, css({ h: '9', w: '9', cursor: 'pointer', _focusVisible: { outlineOffset: '2px' } }));
const anchor = css({ display: 'inline-flex' });
const content = cx(floatingPanel, css({ minW: '44', p: '1', zIndex: 20 }));
const item = cx(floatingItem, css({ color: 'fg' }));
const danger = css({ color: 'danger' });
const separator = css({ my: '1', borderColor: 'border' });

const walletLinks = [
  { value: '/wallets/deposit', label: 'Deposit' },
  { value: '/wallets/withdraw', label: 'Withdraw' },
] as const;
const accountLinks = [
  { value: '/settings', label: 'Settings' },
  { value: '/settings/security', label: 'Security' },
] as const;

/**
 * The avatar menu: Deposit, Withdraw, Settings and Security (our additions: notifications, two-factor) and Log out.
 * An operator holds no wallet (`wallets: false`): their menu starts at Settings.
 */
export function ProfileMenu({ initial, onLogout, wallets = true }: { initial: string; onLogout: () => void; wallets?: boolean }) {
  const links = wallets ? [...walletLinks, ...accountLinks] : accountLinks;
  const router = useRouter();
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      onSelect={({ value }) => {
        if (value === 'logout') onLogout();
        else void router.navigate({ to: value });
      }}
    >
      {/* The tooltip's trigger is a wrapper: on the button itself its id replaced the menu's trigger id, so the
          menu could not find its anchor and opened in the page's top-left corner. */}
      <Tooltip label="Your account">
        <span className={anchor}>
          <Menu.Trigger className={avatar} aria-label="Profile menu">
            {initial}
          </Menu.Trigger>
        </span>
      </Tooltip>
      <Portal>
        <Menu.Positioner>
          <Menu.Content className={content}>
            {links.map((link) => (
              <Menu.Item key={link.value} value={link.value} className={item}>
                {link.label}
              </Menu.Item>
            ))}
            <Menu.Separator className={separator} />
            <Menu.Item value="logout" className={`${item} ${danger}`}>
              Log out
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

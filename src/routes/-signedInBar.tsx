import { useSelector } from '@xstate/react';
import { bindNotifications } from '../machines/notifications/notifications.actors.ts';
import { selectInitial, selectUser } from '../machines/session/session.selectors.ts';
import type { RouterContext } from '../router.ts';
import { SignedInNav } from '../ui/shell/TopNav.tsx';
import { useFlowActor } from './-useFlow.ts';

/**
 * The product's bar for a signed-in user, on routes/_app.tsx's pages and on /flows: its links by role, the bell and
 * the profile menu. Imported only with import(), so that it (menus, popovers, the bell and its chart) is a chunk of
 * its own that /login never downloads. One notifications chart per bar, and its channel with it: key the bar (or
 * what holds it) by the username.
 */
export function SignedInBar({ session, username }: { session: RouterContext['session']; username: string }) {
  const initial = useSelector(session, selectInitial);
  const role = useSelector(session, (snapshot) => selectUser(snapshot)?.role);
  const notifications = useFlowActor(bindNotifications, { input: { username } });
  return <SignedInNav initial={initial} role={role} notifications={notifications} onLogout={() => session.send({ type: 'session.logout' })} />;
}

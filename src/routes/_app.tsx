import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { waitFor } from 'xstate';
import { css } from 'styled-system/css';
import { selectInitial } from '../machines/session/session.selectors.ts';
import { RETURN_TO_PARAM, returnTo } from './-returnTo.ts';

const main = css({ maxW: '7xl', mx: 'auto', px: { base: '4', md: '6' }, py: { base: '6', md: '8' } });

/**
 * Every product screen: without a session the visitor goes to /login, history replaced, and the login page
 * remembers the page they asked for so that signing in returns them there.
 */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location }) => {
    const snapshot = await waitFor(context.session, (state) => !state.matches('restoring'));
    if (!snapshot.matches('signedIn')) {
      const asked = returnTo(location.href);
      throw redirect({ to: '/login', search: asked && asked !== '/' ? { [RETURN_TO_PARAM]: asked } : {}, replace: true });
    }
    // The signed-in bar (menus, popovers) is its own chunk, fetched once someone is signed in and
    // before the page renders, so it never pops in late.
    const { SignedInNav } = await import('../ui/shell/TopNav.tsx');
    return { SignedInNav };
  },
  component: AppLayout,
});

function AppLayout() {
  const { session, SignedInNav } = Route.useRouteContext();
  const initial = useSelector(session, selectInitial);
  return (
    <>
      <SignedInNav initial={initial} onLogout={() => session.send({ type: 'session.logout' })} />
      <main className={main}>
        <Outlet />
      </main>
    </>
  );
}

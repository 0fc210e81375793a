import { Outlet, createFileRoute, notFound, redirect } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { waitFor } from 'xstate';
import { css } from 'styled-system/css';
import { selectUser } from '../machines/session/session.selectors.ts';
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
    // An operator holds nothing and trades nothing (every trading call refuses them): their pages are the console
    // and their own settings, and any other address (a bookmark, a typed /wallets) lands on the console.
    // The console (/operator…) is theirs alone: anyone else meets the 404 of an unknown page (and the server's 403
    // on every call). Here rather than in a route of the console's own, whose definition /login would download too.
    const operator = snapshot.context.user?.role === 'operator';
    if (operator && !/^\/(operator|settings)\b/.test(location.pathname)) throw redirect({ href: '/operator', replace: true });
    if (!operator && location.pathname.startsWith('/operator')) throw notFound();
    // The signed-in bar (menus, popovers, the bell and its chart) is its own chunk, fetched once someone is
    // signed in and before the page renders, so it never pops in late and /login never downloads it.
    const { SignedInBar } = await import('./-signedInBar.tsx');
    return { SignedInBar };
  },
  component: AppLayout,
});

function AppLayout() {
  const { session } = Route.useRouteContext();
  const username = useSelector(session, (snapshot) => selectUser(snapshot)?.username ?? '');
  // Signed out, the redirect to /login on its way: no chart, whose channel would be nobody's and would open a
  // socket for it after the sign-out closed the trader's.
  if (!username) return null;
  // One notifications chart per signed-in trader: it lives as long as this layout (and its channel with it).
  return <SignedInLayout key={username} username={username} />;
}

function SignedInLayout({ username }: { username: string }) {
  const { session, SignedInBar } = Route.useRouteContext();
  return (
    <>
      <SignedInBar session={session} username={username} />
      <main className={main}>
        <Outlet />
      </main>
    </>
  );
}

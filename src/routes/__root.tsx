import { useSelector } from '@xstate/react';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { selectInitial, selectIsSignedIn } from '../machines/session/session.selectors.ts';
import type { RouterContext } from '../router.ts';
import { Toaster } from '../ui/primitives/Toaster.tsx';
import { SignedInNav, SignedOutNav } from '../ui/shell/TopNav.tsx';
import { ErrorPage, NotFoundPage } from '../ui/shell/StatusPages.tsx';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ({ error }) => <ErrorPage error={error} />,
});

function RootLayout() {
  const { session } = Route.useRouteContext();
  const signedIn = useSelector(session, selectIsSignedIn);
  const initial = useSelector(session, selectInitial);
  return (
    <>
      {signedIn ? (
        <SignedInNav initial={initial} onLogout={() => session.send({ type: 'session.logout' })} />
      ) : (
        <SignedOutNav />
      )}
      <Outlet />
      <Toaster />
    </>
  );
}

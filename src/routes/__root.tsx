import { useSelector } from '@xstate/react';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { selectIsSignedIn } from '../machines/session/session.selectors.ts';
import type { RouterContext } from '../router.ts';
import { LaterToaster } from '../ui/primitives/LaterToaster.tsx';
import { SignedOutNav } from '../ui/shell/SignedOutNav.tsx';
import { ErrorPage, NotFoundPage } from '../ui/shell/StatusPages.tsx';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: RootNotFound,
  errorComponent: ({ error }) => <ErrorPage error={error} />,
});

/** Signed out, the bar with Login and Sign Up; signed in, the product layout (routes/_app) draws its own. */
function RootLayout() {
  const { session } = Route.useRouteContext();
  const signedIn = useSelector(session, selectIsSignedIn);
  return (
    <>
      {signedIn ? null : <SignedOutNav />}
      <Outlet />
      <LaterToaster />
    </>
  );
}

function RootNotFound() {
  const { session } = Route.useRouteContext();
  const signedIn = useSelector(session, selectIsSignedIn);
  return (
    <>
      {signedIn ? <SignedOutNav links={false} /> : null}
      <NotFoundPage />
    </>
  );
}

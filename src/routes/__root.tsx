import { useSelector } from '@xstate/react';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import { selectInitial, selectIsSignedIn } from '../machines/session/session.selectors.ts';
import type { RouterContext } from '../router.ts';
import { Toaster } from '../ui/primitives/Toaster.tsx';
import { SignedOutNav } from '../ui/shell/SignedOutNav.tsx';
import { ErrorPage, NotFoundPage } from '../ui/shell/StatusPages.tsx';

// The signed-in bar (menus, popovers) is fetched only once someone is signed in.
const SignedInNav = lazy(() => import('../ui/shell/TopNav.tsx').then((module) => ({ default: module.SignedInNav })));

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
        <Suspense fallback={<SignedOutNav links={false} />}>
          <SignedInNav initial={initial} onLogout={() => session.send({ type: 'session.logout' })} />
        </Suspense>
      ) : (
        <SignedOutNav />
      )}
      <Outlet />
      <Toaster />
    </>
  );
}

import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { RETURN_TO_PARAM, returnTo } from './-returnTo.ts';

/**
 * Login, signup and forgot-password: a signed-in visitor is bounced, history replaced: to the page they first
 * asked for when the login page remembers one, otherwise to the dashboard.
 */
export const Route = createFileRoute('/_public')({
  beforeLoad: async ({ context, location }) => {
    const snapshot = await waitFor(context.session, (state) => !state.matches('restoring'));
    if (snapshot.matches('signedIn')) {
      const asked = returnTo((location.search as Record<string, unknown>)[RETURN_TO_PARAM]);
      throw asked ? redirect({ href: asked, replace: true }) : redirect({ to: '/', replace: true });
    }
  },
  component: Outlet,
});

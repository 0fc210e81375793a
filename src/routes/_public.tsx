import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';

/** Login, signup and forgot-password: a signed-in visitor is bounced to / (spec section 6). */
export const Route = createFileRoute('/_public')({
  beforeLoad: async ({ context }) => {
    const snapshot = await waitFor(context.session, (state) => !state.matches('restoring'));
    if (snapshot.matches('signedIn')) throw redirect({ to: '/', replace: true });
  },
  component: Outlet,
});

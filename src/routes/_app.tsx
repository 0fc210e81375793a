import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { css } from 'styled-system/css';

const main = css({ maxW: '7xl', mx: 'auto', px: { base: '4', md: '6' }, py: { base: '6', md: '8' } });

/** Every product screen: without a session the visitor goes to /login, history replaced (spec section 2). */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context }) => {
    const snapshot = await waitFor(context.session, (state) => !state.matches('restoring'));
    if (!snapshot.matches('signedIn')) throw redirect({ to: '/login', replace: true });
  },
  component: () => (
    <main className={main}>
      <Outlet />
    </main>
  ),
});

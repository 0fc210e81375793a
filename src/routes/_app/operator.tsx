import { Outlet, createFileRoute, notFound } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/operator')({
  // Only operators have a console: anyone else meets the 404 of an unknown page (and the server's 403 on every call).
  // The session is read directly, not through its selectors: this guard ships with every first page.
  beforeLoad: ({ context }) => {
    if (context.session.getSnapshot().context.user?.role !== 'operator') throw notFound();
  },
  component: Outlet,
});

import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectPushRegistration } from '../../../machines/session/session.selectors.ts';
import { SettingsScreen } from '../../../ui/settings/SettingsScreen.tsx';

export const Route = createFileRoute('/_app/settings/')({ component: SettingsRoute });

/** The session's own push registration actor (it runs while signed in), never a second registration. */
function SettingsRoute() {
  const { session } = Route.useRouteContext();
  return <SettingsScreen push={useSelector(session, selectPushRegistration)} />;
}

import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { bindAntiPhishing } from '../../../machines/antiPhishing/antiPhishing.actors.ts';
import { bindSignInHistory } from '../../../machines/signInHistory/signInHistory.actors.ts';
import { bindTwoFactor } from '../../../machines/twoFactor/twoFactor.actors.ts';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindWithdrawalAllowlist } from '../../../machines/withdrawalAllowlist/withdrawalAllowlist.actors.ts';
import { useFlowActor } from '../../-useFlow.ts';
import { SecurityScreen } from '../../../ui/auth/SecurityScreen.tsx';
import { AntiPhishingCard } from '../../../ui/security/AntiPhishingCard.tsx';
import { SignInHistoryCard } from '../../../ui/security/SignInHistoryCard.tsx';
import { WithdrawalAllowlistCard } from '../../../ui/security/WithdrawalAllowlistCard.tsx';

export const Route = createFileRoute('/_app/settings/security')({ component: SecurityRoute });

/**
 * Two-factor, then the account protections: each section its own chart. An operator withdraws nothing (the
 * allowlist's calls refuse them with `operator.not_a_trader`), so their page has no allowlist.
 */
function SecurityRoute() {
  const { session } = Route.useRouteContext();
  const trades = useSelector(session, (snapshot) => selectUser(snapshot)?.role !== 'operator');
  return (
    <SecurityScreen actor={useFlowActor(bindTwoFactor)}>
      <SignInHistoryCard actor={useFlowActor(bindSignInHistory)} />
      <AntiPhishingCard actor={useFlowActor(bindAntiPhishing)} />
      {trades && <AllowlistSection />}
    </SecurityScreen>
  );
}

function AllowlistSection() {
  return <WithdrawalAllowlistCard actor={useFlowActor(bindWithdrawalAllowlist)} />;
}

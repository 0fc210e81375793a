import { createFileRoute } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { bindAntiPhishing } from '../../../machines/antiPhishing/antiPhishing.actors.ts';
import { bindSignInHistory } from '../../../machines/signInHistory/signInHistory.actors.ts';
import { bindTwoFactor } from '../../../machines/twoFactor/twoFactor.actors.ts';
import { bindWithdrawalAllowlist } from '../../../machines/withdrawalAllowlist/withdrawalAllowlist.actors.ts';
import { useFlow } from '../../-useFlow.ts';
import { SecurityScreen } from '../../../ui/auth/SecurityScreen.tsx';
import { AntiPhishingCard } from '../../../ui/security/AntiPhishingCard.tsx';
import { SignInHistoryCard } from '../../../ui/security/SignInHistoryCard.tsx';
import { WithdrawalAllowlistCard } from '../../../ui/security/WithdrawalAllowlistCard.tsx';

export const Route = createFileRoute('/_app/settings/security')({ component: SecurityRoute });

/** Two-factor, then the account protections: each section its own chart. */
function SecurityRoute() {
  return (
    <SecurityScreen actor={useActorRef(useFlow(bindTwoFactor))}>
      <SignInHistoryCard actor={useActorRef(useFlow(bindSignInHistory))} />
      <AntiPhishingCard actor={useActorRef(useFlow(bindAntiPhishing))} />
      <WithdrawalAllowlistCard actor={useActorRef(useFlow(bindWithdrawalAllowlist))} />
    </SecurityScreen>
  );
}

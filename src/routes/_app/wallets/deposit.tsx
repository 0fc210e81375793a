import { createFileRoute } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { z } from 'zod/mini';
import { selectUser } from '../../../machines/session/session.selectors.ts';
import { bindDeposit } from '../../../machines/deposit/deposit.actors.ts';
import { DepositScreen } from '../../../ui/wallets/DepositScreen.tsx';
import { useFlowActor } from '../../-useFlow.ts';

/** `?coin=<TICKER>` preselects a coin (the wallet cards link so); anything that is not a ticker is ignored. */
const depositSearch = z.object({
  coin: z.catch(z.optional(z.string().check(z.regex(/^[A-Za-z0-9]{2,10}$/), z.toUpperCase())), undefined),
});

export const Route = createFileRoute('/_app/wallets/deposit')({
  validateSearch: (search: Record<string, unknown>) => z.parse(depositSearch, search),
  component: DepositRoute,
});

function DepositRoute() {
  const { coin } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { session } = Route.useRouteContext();
  const username = useSelector(session, selectUser)?.username ?? '';
  const deposit = useFlowActor(bindDeposit, { input: { coin: coin ?? null, username } });
  return (
    <DepositScreen
      actor={deposit}
      onSelectCoin={(ticker) => {
        deposit.send({ type: 'coin.select', ticker });
        void navigate({ search: { coin: ticker }, replace: true });
      }}
    />
  );
}

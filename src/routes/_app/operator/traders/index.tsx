import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { bindTraderSearch } from '../../../../machines/traderSearch/traderSearch.actors.ts';
import { TraderSearchScreen } from '../../../../ui/operator/TraderSearchScreen.tsx';
import { useFlowActor } from '../../../-useFlow.ts';

const search = z.object({ q: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined) });

export const Route = createFileRoute('/_app/operator/traders/')({
  validateSearch: (params: Record<string, unknown>) => z.parse(search, params),
  component: TraderSearchRoute,
});

function TraderSearchRoute() {
  const { q } = Route.useSearch();
  const navigate = Route.useNavigate();
  const actor = useFlowActor(bindTraderSearch, { input: { query: q ?? '' } });
  // The search in the URL follows what is searched, so Back from a trader's page returns to the same rows.
  return <TraderSearchScreen actor={actor} onSearched={(query) => void navigate({ search: query ? { q: query } : {}, replace: true })} />;
}

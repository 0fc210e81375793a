import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import {
  selectCanNext,
  selectCanPrevious,
  selectHasLoaded,
  selectIsLoading,
  selectQuery,
  selectSearched,
  selectTraders,
} from '../../machines/traderSearch/traderSearch.selectors.ts';
import { PageHeader } from '../pages/PageHeader.tsx';
import { cardStyle } from '../primitives/Card.tsx';
import { Form } from '../primitives/Form.tsx';
import { Pager } from '../primitives/Pager.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { formatMaybe } from './format.ts';
import { DataTable, type Column } from '../primitives/DataTable.tsx';
import { link } from './styles.ts';
import type { TraderSearchRef } from './types.ts';

const bar = css({ mt: '6' });
const results = css({ mt: '4' });
const columns: Column[] = [
  { label: 'Username', nowrap: true },
  { label: 'Email', nowrap: true },
  { label: 'Role' },
  { label: 'Joined', nowrap: true },
  { label: 'Last seen', nowrap: true },
  { label: 'Status' },
];

/** /operator/traders: a search box over the traders, and their rows, each opening that trader's page. */
export function TraderSearchScreen({ actor }: { actor: TraderSearchRef }) {
  const query = useSelector(actor, selectQuery);
  const searched = useSelector(actor, selectSearched);
  const traders = useSelector(actor, selectTraders);
  const loading = useSelector(actor, selectIsLoading);
  const loaded = useSelector(actor, selectHasLoaded);
  const canPrevious = useSelector(actor, selectCanPrevious);
  const canNext = useSelector(actor, selectCanNext);
  return (
    <section aria-busy={loading}>
      <PageHeader title="Traders" subtitle="Find a trader by username or email, then open their page." />
      <Form className={`${cardStyle} ${bar}`} role="search" onSubmit={() => actor.send({ type: 'search.submit' })}>
        <TextField
          label="Username or email"
          name="query"
          type="search"
          placeholder="alice, or alice@example.com"
          autoComplete="off"
          value={query}
          onValueChange={(value) => actor.send({ type: 'query.change', value })}
        />
      </Form>
      <DataTable
        className={results}
        columns={columns}
        loaded={loaded}
        empty={searched ? `No trader matches “${searched}”.` : 'No traders yet.'}
        rows={traders.map((trader) => ({
          key: trader.username,
          cells: [
            <Link key="username" to="/operator/{-$section}/{-$username}" params={{ section: 'traders', username: trader.username }} className={link}>
              {trader.username}
            </Link>,
            trader.email,
            trader.role,
            formatMaybe(trader.joined),
            formatMaybe(trader.last_seen, 'Never'),
            trader.suspended ? <Badge tone="danger">Suspended</Badge> : <Badge tone="success">Active</Badge>,
          ],
        }))}
      />
      <Pager canPrevious={canPrevious} canNext={canNext} actor={actor} />
    </section>
  );
}

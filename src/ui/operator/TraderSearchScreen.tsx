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
import { emptyRow, link, nowrap, stacked, table, tableCard } from './styles.ts';
import type { TraderSearchRef } from './types.ts';

const bar = css({ mt: '6' });
const results = css({ mt: '4' });

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
      <div className={`${tableCard} ${results}`}>
        <table className={`${table} ${stacked}`}>
          <thead>
            <tr>
              <th>Username</th>
              <th>Email</th>
              <th>Role</th>
              <th>Joined</th>
              <th>Last seen</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {traders.map((trader) => (
              <tr key={trader.username}>
                <td className={nowrap} data-label="Username">
                  <Link to="/operator/{-$section}/{-$username}" params={{ section: 'traders', username: trader.username }} className={link}>
                    {trader.username}
                  </Link>
                </td>
                <td className={nowrap} data-label="Email">
                  {trader.email}
                </td>
                <td data-label="Role">{trader.role}</td>
                <td className={nowrap} data-label="Joined">
                  {formatMaybe(trader.joined)}
                </td>
                <td className={nowrap} data-label="Last seen">
                  {formatMaybe(trader.last_seen, 'Never')}
                </td>
                <td data-label="Status">{trader.suspended ? <Badge tone="danger">Suspended</Badge> : <Badge tone="success">Active</Badge>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {loaded && traders.length === 0 ? <p className={emptyRow}>{searched ? `No trader matches “${searched}”.` : 'No traders yet.'}</p> : null}
      </div>
      <Pager
        canPrevious={canPrevious}
        canNext={canNext}
        onPrevious={() => actor.send({ type: 'page.previous' })}
        onNext={() => actor.send({ type: 'page.next' })}
      />
    </section>
  );
}

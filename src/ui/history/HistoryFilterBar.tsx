import { useMemo } from 'react';
import { css, cx } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { filterBar } from '../primitives/boxes.ts';
import { FilterSelectField } from '../primitives/SelectField.tsx';

/**
 * A history row's status as the filters offer it; '' is no filter. Every history has the common ones; `review` is
 * a withdrawal's only (Recent Transactions offers it, Recent Trades does not).
 */
export type HistoryStatusFilter = '' | 'pending' | 'completed' | 'cancelled';
export type WalletStatusFilter = HistoryStatusFilter | 'review';
export type HistoryStatusOption<Status extends string> = { value: Exclude<Status, ''>; label: string };

export const STATUS_OPTIONS: readonly HistoryStatusOption<HistoryStatusFilter>[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
];

const bar = cx(filterBar, css({ gridTemplateColumns: { base: '1fr', sm: 'repeat(3, 1fr) auto' } }));
/** The card a history table scrolls in, sideways on a phone. */
export const historyTableWrap = css({ mt: '6', overflowX: 'auto', p: '0!' });

/**
 * The filters of Recent Trades and Recent Transactions: a type of its own, status, coin and
 * "Clear All". Each change is an event for the screen's chart to send; the bar holds no state.
 */
export type HistoryFilterBarProps<Type extends string, Status extends string = HistoryStatusFilter> = {
  type: { name: string; options: ReadonlyArray<{ value: Type; label: string }>; value: Type | ''; onChange: (value: Type | '') => void };
  status: Status | '';
  /** The status filter's choices. */
  statuses: readonly HistoryStatusOption<Status>[];
  coinId: string;
  coins: ReadonlyArray<{ id: number; label: string; image: string }>;
  onStatus: (value: Status | '') => void;
  onCoin: (value: string) => void;
  onClear: () => void;
};

export function HistoryFilterBar<Type extends string, Status extends string>({
  type,
  status,
  statuses,
  coinId,
  coins,
  onStatus,
  onCoin,
  onClear,
}: HistoryFilterBarProps<Type, Status>) {
  const statusOf = (value: string) => statuses.find((option) => option.value === value)?.value ?? '';
  const typeOf = (value: string) => type.options.find((option) => option.value === value)?.value ?? '';
  const coinOptions = useMemo(() => coins.map((coin) => ({ value: String(coin.id), label: coin.label, image: coin.image })), [coins]);
  return (
    <div className={bar} role="search">
      <FilterSelectField
        label="Type"
        name={type.name}
        allLabel="All types"
        options={type.options}
        value={type.value}
        onValueChange={(value) => type.onChange(typeOf(value))}
      />
      <FilterSelectField
        label="Status"
        name="status"
        allLabel="All statuses"
        options={statuses}
        value={status}
        onValueChange={(value) => onStatus(statusOf(value))}
      />
      <FilterSelectField label="Coin" name="coin" allLabel="All coins" options={coinOptions} value={coinId} onValueChange={onCoin} />
      <Button variant="outline" onClick={onClear}>
        Clear All
      </Button>
    </div>
  );
}

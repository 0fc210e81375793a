import { useMemo } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { cardStyle } from '../primitives/Card.tsx';
import { FilterSelectField } from '../primitives/SelectField.tsx';

/** A history row's status as the filters offer it; '' is no filter. */
export type HistoryStatusFilter = '' | 'pending' | 'completed' | 'cancelled';

const STATUS_OPTIONS = [
  { value: 'pending', label: 'Pending' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
];
const isStatus = (value: string): value is Exclude<HistoryStatusFilter, ''> =>
  value === 'pending' || value === 'completed' || value === 'cancelled';

const bar = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(3, 1fr) auto' },
  gap: '3',
  alignItems: 'end',
  mt: '6',
});
/** The card a history table scrolls in, sideways on a phone. */
export const historyTableWrap = css({ mt: '6', overflowX: 'auto', p: '0!' });

/**
 * The filters of Recent Trades and Recent Transactions: a type of its own, status, coin and
 * "Clear All". Each change is an event for the screen's chart to send; the bar holds no state.
 */
export type HistoryFilterBarProps<Type extends string> = {
  type: { name: string; options: ReadonlyArray<{ value: Type; label: string }>; value: Type | ''; onChange: (value: Type | '') => void };
  status: HistoryStatusFilter;
  coinId: string;
  coins: ReadonlyArray<{ id: number; label: string; image: string }>;
  onStatus: (value: HistoryStatusFilter) => void;
  onCoin: (value: string) => void;
  onClear: () => void;
};

export function HistoryFilterBar<Type extends string>({ type, status, coinId, coins, onStatus, onCoin, onClear }: HistoryFilterBarProps<Type>) {
  const typeOf = (value: string) => type.options.find((option) => option.value === value)?.value ?? '';
  const coinOptions = useMemo(() => coins.map((coin) => ({ value: String(coin.id), label: coin.label, image: coin.image })), [coins]);
  return (
    <div className={`${cardStyle} ${bar}`} role="search">
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
        options={STATUS_OPTIONS}
        value={status}
        onValueChange={(value) => onStatus(isStatus(value) ? value : '')}
      />
      <FilterSelectField label="Coin" name="coin" allLabel="All coins" options={coinOptions} value={coinId} onValueChange={onCoin} />
      <Button variant="outline" onClick={onClear}>
        Clear All
      </Button>
    </div>
  );
}

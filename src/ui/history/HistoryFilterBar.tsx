import { css } from 'styled-system/css';
import { Button } from '../primitives/Button.tsx';
import { cardStyle } from '../primitives/Card.tsx';
import { SelectField } from '../primitives/SelectField.tsx';

/** A history row's status as the filters offer it; '' is no filter. */
export type HistoryStatusFilter = '' | 'pending' | 'completed' | 'cancelled';

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  { value: 'pending', label: 'Pending' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
];
const isStatus = (value: string | undefined): value is Exclude<HistoryStatusFilter, ''> =>
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
  const typeOf = (value: string | undefined) => type.options.find((option) => option.value === value)?.value ?? '';
  return (
    <div className={`${cardStyle} ${bar}`} role="search">
      <SelectField
        label="Type"
        name={type.name}
        placeholder="All types"
        options={[{ value: '', label: 'All types' }, ...type.options]}
        value={[type.value]}
        onValueChange={([value]) => type.onChange(typeOf(value))}
      />
      <SelectField
        label="Status"
        name="status"
        placeholder="All statuses"
        options={STATUS_OPTIONS}
        value={[status]}
        onValueChange={([value]) => onStatus(isStatus(value) ? value : '')}
      />
      <SelectField
        label="Coin"
        name="coin"
        placeholder="All coins"
        options={[{ value: '', label: 'All coins' }, ...coins.map((coin) => ({ value: String(coin.id), label: coin.label, image: coin.image }))]}
        value={[coinId]}
        onValueChange={([value]) => onCoin(value ?? '')}
      />
      <Button variant="outline" onClick={onClear}>
        Clear All
      </Button>
    </div>
  );
}

import { thousands } from '../../contracts/common.ts';
import { accountAgeDays, conditionFieldProblem, hasConditions, unmetCondition } from '../../domain/offerConditions.ts';

const none = { min_completed_trades: 0, min_account_days: 0, require_two_factor: false };
const taker = { completed_trades: 4, account_age_days: 29, two_factor: false };

describe('unmetCondition: the rule the server refuses an open by and Browse Offers tells a taker with', () => {
  it('is met by anyone when the offer asks nothing', () => {
    expect(hasConditions(none)).toBe(false);
    expect(unmetCondition(none, { completed_trades: 0, account_age_days: 0, two_factor: false })).toBeNull();
  });

  it('names the first condition missed, in the order trades, account age, two-factor', () => {
    const all = { min_completed_trades: 5, min_account_days: 30, require_two_factor: true };
    expect(hasConditions(all)).toBe(true);
    expect(unmetCondition(all, taker)).toBe('This offer is for traders with at least 5 completed trades.');
    expect(unmetCondition(all, { ...taker, completed_trades: 5 })).toBe('This offer is for traders whose account is at least 30 days old.');
    expect(unmetCondition(all, { ...taker, completed_trades: 5, account_age_days: 30 })).toBe(
      'This offer is for traders with two-factor authentication on.',
    );
    expect(unmetCondition(all, { completed_trades: 5, account_age_days: 30, two_factor: true })).toBeNull();
  });

  it('words one trade, one day and large numbers as people read them', () => {
    expect(unmetCondition({ ...none, min_completed_trades: 1 }, { ...taker, completed_trades: 0 })).toBe(
      'This offer is for traders with at least 1 completed trade.',
    );
    expect(unmetCondition({ ...none, min_account_days: 1 }, { ...taker, account_age_days: 0 })).toBe(
      'This offer is for traders whose account is at least 1 day old.',
    );
    expect(unmetCondition({ ...none, min_completed_trades: 10_000 }, taker)).toBe('This offer is for traders with at least 10,000 completed trades.');
  });
});

describe('accountAgeDays', () => {
  const made = new Date('2026-03-01T12:00:00.000Z');
  it('counts whole days since the account was made', () => {
    expect(accountAgeDays(made, made)).toBe(0);
    expect(accountAgeDays(made, new Date('2026-03-02T11:59:59.999Z'))).toBe(0);
    expect(accountAgeDays(made, new Date('2026-03-02T12:00:00.000Z'))).toBe(1);
    expect(accountAgeDays(made, new Date('2026-03-31T12:00:00.000Z'))).toBe(30);
    // A clock behind the account's own time is no negative age.
    expect(accountAgeDays(made, new Date('2026-02-28T00:00:00.000Z'))).toBe(0);
  });
});

describe('conditionFieldProblem: the offer form\'s numbers, in the contract\'s words', () => {
  it.each([
    ['min_completed_trades', '', undefined],
    ['min_completed_trades', ' 5 ', undefined],
    ['min_completed_trades', '0', undefined],
    ['min_completed_trades', '100000', undefined],
    ['min_completed_trades', '100001', 'min_completed_trades must be a whole number from 0 to 100,000'],
    ['min_completed_trades', '-1', 'min_completed_trades must be a whole number from 0 to 100,000'],
    ['min_completed_trades', '2.5', 'min_completed_trades must be a whole number from 0 to 100,000'],
    ['min_completed_trades', '1e3', 'min_completed_trades must be a whole number from 0 to 100,000'],
    ['min_account_days', '3650', undefined],
    ['min_account_days', '3651', 'min_account_days must be a whole number from 0 to 3,650'],
    ['min_account_days', 'thirty', 'min_account_days must be a whole number from 0 to 3,650'],
    ['max_open_trades', '1', undefined],
    ['max_open_trades', '20', undefined],
    ['max_open_trades', '', 'max_open_trades must be a whole number from 1 to 20'],
    ['max_open_trades', '0', 'max_open_trades must be a whole number from 1 to 20'],
    ['max_open_trades', '21', 'max_open_trades must be a whole number from 1 to 20'],
    ['max_open_trades', '9999999999', 'max_open_trades must be a whole number from 1 to 20'],
  ] as const)('%s typed as %j: %s', (field, text, problem) => {
    expect(conditionFieldProblem(field, text)).toBe(problem);
  });
});

describe('thousands (the sentences\' numbers, as en-US writes them)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [10000, '10,000'],
    [123456, '123,456'],
    [1234567, '1,234,567'],
  ])('%i → %s, as toLocaleString("en-US") does', (count, written) => {
    expect(thousands(count)).toBe(written);
    expect(thousands(count)).toBe(count.toLocaleString('en-US'));
  });
});

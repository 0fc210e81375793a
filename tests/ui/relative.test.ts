import { DateTime } from 'luxon';
import { formatRelative } from '../../src/ui/format/relative.ts';

const now = DateTime.fromISO('2026-03-05T14:07:00.000Z');
const before = (milliseconds: number) => now.minus({ milliseconds }).toISO()!;

describe('formatRelative: how long ago a notification, a sign-in or a rating happened', () => {
  it('says "just now" for what happened under a minute ago, never "0 seconds ago"', () => {
    expect(formatRelative(now.toISO()!, now)).toBe('just now');
    expect(formatRelative(before(1_000), now)).toBe('just now');
    expect(formatRelative(before(59_999), now)).toBe('just now');
  });

  it('counts from a minute on, in the largest unit', () => {
    expect(formatRelative(before(60_000), now)).toBe('1 minute ago');
    expect(formatRelative(before(5 * 60_000), now)).toBe('5 minutes ago');
    expect(formatRelative(before(2 * 3_600_000), now)).toBe('2 hours ago');
    expect(formatRelative(before(3 * 86_400_000), now)).toBe('3 days ago');
  });

  it('says "just now" for a moment this clock puts ahead of now (the server\'s clock a little ahead)', () => {
    expect(formatRelative(now.plus({ seconds: 3 }).toISO()!, now)).toBe('just now');
    expect(formatRelative(now.plus({ minutes: 2 }).toISO()!, now)).toBe('just now');
  });

  it('says nothing for a time that is not one', () => {
    expect(formatRelative('not a time', now)).toBe('');
  });

  it('reads the clock when no "now" is given', () => {
    expect(formatRelative(new Date().toISOString())).toBe('just now');
    expect(formatRelative(new Date(Date.now() - 10 * 60_000).toISOString())).toBe('10 minutes ago');
  });
});

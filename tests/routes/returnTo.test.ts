import { returnTo } from '../../src/routes/-returnTo.ts';

describe('returnTo: where signing in may send a trader back to', () => {
  it.each(['/', '/trades', '/offers/12', '/wallets/transactions?page=2', '/chat#latest'])('takes a page of this site: %s', (path) => {
    expect(returnTo(path)).toBe(path);
  });

  it.each([
    ['another site', '//evil.example/login'],
    ['a backslash trick', '/\\evil.example'],
    ['an absolute URL', 'https://evil.example/'],
    ['a script URL', 'javascript:alert(1)'],
    ['a relative path', 'trades'],
    ['the login page itself', '/login?redirect=/trades'],
    ['signup', '/signup'],
    ['forgot password', '/forgot-password'],
    ['nothing', undefined],
    ['a number', 42],
  ])('refuses %s', (_, value) => {
    expect(returnTo(value)).toBeUndefined();
  });

  it('takes paths that merely start like an auth page', () => {
    expect(returnTo('/loginhelp')).toBe('/loginhelp');
  });
});

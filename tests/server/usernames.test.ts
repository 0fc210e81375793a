/**
 * Look-alike names (docs/rules.md "Look-alike names"): lists, profiles and notifications show a trader's name
 * without the chat's moderator badge, so signup refuses a name that reads as staff once its look-alike digits and
 * separators are read as what they pass for. Names that already exist are not touched; the demo's `mod` is made
 * by the seed (tests/server/seed.test.ts signs it in).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReservedUsername, usernameSkeleton } from '../../server/src/accounts/roles.ts';
import { lastCodeFor, newTrader } from '../support/server-flows.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';

const NOT_AVAILABLE = { status: 400, body: { success: false, info: 'This username is not available' } };
const REFUSED = ['Moderator_', 'M0derator', 'Peerex_Support', 'Adm1n', 'system', 'mod_', 'MOD', 'ops', '0ps', 'Moderator', 'moderator_fan', 'SysAdmin', 'the_peerex', '5upport_desk', 'SY5TEM7', 'm_o_d', 'peerexofficial'];
const ACCEPTED = ['alice', 'modesto', 'bob_the_trader', 'mode', 'opsy', 'topsy', 'admiral', 'supply', 'my_system_fan', 'moderate'];

describe.each(dbTargets)('signup refuses look-alike staff names on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t?.close());

  const register = async (username: string) => {
    const details = { ...newTrader(), username };
    await t.post('/api/security/validate_email/', { type: 'request', email: details.email });
    await t.post('/api/security/validate_email/', { type: 'verify', email: details.email, code: lastCodeFor(t, details.email) });
    return t.post('/api/security/register/', { ...details, confirmPassword: details.password, device: 'vitest' });
  };

  it('answers 400 "This username is not available" and creates no account', async () => {
    for (const username of REFUSED) expect(await register(username), username).toEqual(NOT_AVAILABLE);
    const made = await t.app.db.query<{ username: string }>('SELECT username FROM users WHERE lower(username) = ANY ($1)', [REFUSED.map((name) => name.toLowerCase())]);
    expect(made).toEqual([]);
  });

  it('registers ordinary names, those that only hold a staff word inside them included', async () => {
    for (const username of ACCEPTED) {
      const answer = await register(username);
      expect(answer.status, `${username}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
  });
});

describe('usernameSkeleton', () => {
  it('is NFKC, case-folded, with 0→o 1→i l→i 3→e 4→a 5→s 7→t and _ - . dropped', () => {
    expect(usernameSkeleton('M0derator_')).toBe('moderator');
    expect(usernameSkeleton('Peerex_Support')).toBe('peerexsupport');
    expect(usernameSkeleton('Adm1n')).toBe('admin');
    expect(usernameSkeleton('A.d-m_I.N')).toBe('admin');
    expect(usernameSkeleton('4l1c3')).toBe('aiice');
    expect(usernameSkeleton('5y5t3m')).toBe('system');
    expect(usernameSkeleton('ＳＹＳＴＥＭ')).toBe('system');
    expect(usernameSkeleton('7op')).toBe('top');
  });

  it('reserves mod and ops exactly, and moderator, admin, support, peerex, system at either end', () => {
    for (const name of [...REFUSED, 'ｍｏｄ', 'mod.', 'Super-Admin', 'peerex-system']) expect(isReservedUsername(name), name).toBe(true);
    for (const name of [...ACCEPTED, 'model', 'mods', 'oops', 'madmind']) expect(isReservedUsername(name), name).toBe(false);
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import { openDatabase } from '../../server/src/infra/db/open.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { lastCodeFor, newTrader, signUp } from '../support/server-flows.ts';
import { insertUser } from '../support/server-money.ts';
import { moderationCall, moderator, signedInAgain, trader } from '../support/server-trades.ts';

const run = promisify(execFile);
const roleOf = async (t: TestApp, username: string) =>
  (await t.app.db.one<{ role: string }>('SELECT role FROM users WHERE username = $1', [username])).role;

describe.each(dbTargets)('roles: setUserRole (npm run user:role) on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('grants and takes back the moderator role by username in any case, ending every session of theirs each time', async () => {
    const who = await trader(t);
    const elsewhere = await signedInAgain(t, who);
    const bystander = await trader(t);
    expect((await moderationCall(t, who, { type: 'list' })).status).toBe(403);
    expect(await setUserRole(t.app.db, who.username.toUpperCase(), 'moderator')).toEqual({
      ok: true,
      sentence: `${who.username} is now a moderator: they are signed out everywhere and see the dispute desk once they sign in again.`,
    });
    expect(await roleOf(t, who.username)).toBe('moderator');
    // Every session of theirs ended (each device signs in again under the new role); nobody else's did.
    for (const session of [who, elsewhere]) expect((await moderationCall(t, session, { type: 'list' })).status).toBe(401);
    expect((await t.post('/api/user/overview/', {}, { token: bystander.token })).status).toBe(200);
    const asModerator = await signedInAgain(t, who);
    expect((await moderationCall(t, asModerator, { type: 'list' })).status).toBe(200);
    // Nothing changes, nothing ends.
    expect(await setUserRole(t.app.db, who.username, 'moderator')).toEqual({ ok: true, sentence: `${who.username} already is a moderator; nothing changed.` });
    expect((await moderationCall(t, asModerator, { type: 'list' })).status).toBe(200);
    expect(await setUserRole(t.app.db, who.username, 'trader')).toEqual({
      ok: true,
      sentence: `${who.username} is now a trader again: they are signed out everywhere and the staff pages are closed to them.`,
    });
    expect((await moderationCall(t, asModerator, { type: 'list' })).status).toBe(401);
    expect((await moderationCall(t, await signedInAgain(t, who), { type: 'list' })).status).toBe(403);
  });

  it('refuses an unknown user or an unknown role and changes nothing', async () => {
    const who = await trader(t);
    expect(await setUserRole(t.app.db, 'nobody_by_this_name', 'moderator')).toEqual({ ok: false, sentence: 'There is no user named "nobody_by_this_name".' });
    for (const role of ['admin', 'Moderator', '']) {
      expect(await setUserRole(t.app.db, who.username, role)).toEqual({ ok: false, sentence: `Unknown role "${role}": use trader, moderator or operator.` });
    }
    expect(await roleOf(t, who.username)).toBe('trader');
  });

  it('no API call changes a role: a signup is a trader whatever it sends', async () => {
    const details = newTrader();
    await t.post('/api/security/validate_email/', { type: 'request', email: details.email });
    await t.post('/api/security/validate_email/', { type: 'verify', email: details.email, code: lastCodeFor(t, details.email) });
    const registered = await t.post<{ user: { role: string } }>('/api/security/register/', {
      email: details.email,
      username: details.username,
      password: details.password,
      confirmPassword: details.password,
      device: 'vitest',
      role: 'moderator',
    });
    expect(registered.status).toBe(200);
    expect(registered.body.info.user.role).toBe('trader');
    expect(await roleOf(t, details.username)).toBe('trader');
  });

  it('reserves the username "Moderator" in any case at registration (400), so no trader can pose as the moderator', async () => {
    for (const username of ['Moderator', 'moderator', 'MODERATOR']) {
      const details = { ...newTrader(), username };
      await t.post('/api/security/validate_email/', { type: 'request', email: details.email });
      await t.post('/api/security/validate_email/', { type: 'verify', email: details.email, code: lastCodeFor(t, details.email) });
      const answer = await t.post('/api/security/register/', {
        email: details.email,
        username,
        password: details.password,
        confirmPassword: details.password,
        device: 'vitest',
      });
      expect(answer).toEqual({ status: 400, body: { success: false, info: 'This username is not available' } });
    }
    expect(await t.app.db.one(`SELECT count(*)::int AS users FROM users WHERE lower(username) = 'moderator'`)).toEqual({ users: 0 });
    // A name that merely holds the word inside it is a name like any other (look-alike names: tests/server/usernames.test.ts).
    expect((await signUp(t, { ...newTrader(), username: 'the_moderators_fan' })).user.role).toBe('trader');
  });
});

describe.each(dbTargets)('the dispute desk refuses by role before it reads the body, on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  const send = (token: string | undefined, payload: string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/api/market/moderation/',
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload,
    });

  it("answers a trader's body 403 for the role whatever it is: not JSON, not even the right type; without a session 401", async () => {
    const who = await trader(t);
    for (const [payload, contentType] of [['{"type":', undefined], ['type=list', 'text/plain'], ['{"type":"list"}', 'application/x-www-form-urlencoded'], ['{"__proto__":{"role":"moderator"}}', undefined], ['x'.repeat(70_000), undefined]] as const) {
      const refused = await send(who.token, payload, contentType);
      expect({ status: refused.statusCode, body: refused.json() }, payload.slice(0, 40)).toEqual({
        status: 403,
        body: { success: false, code: 'moderation.moderators_only', info: 'Only moderators can use the dispute desk.' },
      });
      const nobody = await send(undefined, payload, contentType);
      expect({ status: nobody.statusCode, body: nobody.json() }).toEqual({ status: 401, body: { success: false, code: 'session.expired', info: 'Session expired' } });
    }
  });

  it("reads a moderator's body: bad JSON is named as such, a good one answered", async () => {
    const mod = await moderator(t);
    const bad = await send(mod.token, '{"type":');
    expect({ status: bad.statusCode, body: bad.json() }).toEqual({ status: 400, body: { success: false, code: 'request.malformed_json', info: 'The request body is not valid JSON.' } });
    expect((await send(mod.token, '{"type":"list"}')).statusCode).toBe(200);
  });
});

describe.each(dbTargets)('npm run user:role, the command, on %s', (target) => {
  const npm = (args: string[], env: Record<string, string>) =>
    run('npm', ['run', '--silent', 'user:role', '--', ...args], { env: { ...process.env, DATABASE_URL: '', ...env } }).then(
      (finished) => ({ code: 0, out: finished.stdout }),
      (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, out: failed.stdout + failed.stderr }),
    );

  it('grants, takes back, and exits 1 for an unknown user or role', async () => {
    // PGlite: files under a DATA_DIR, closed before the command opens them (one process at a time).
    const dataDir = await mkdtemp(join(tmpdir(), 'peerex-user-role-'));
    const t = await createTestApp(target, target === 'pglite' ? { env: { DATA_DIR: dataDir } } : {});
    const env: Record<string, string> = target === 'pglite' ? { DATA_DIR: dataDir } : { DATABASE_URL: t.config.databaseUrl ?? '' };
    try {
      const user = await insertUser(t.app.db);
      if (target === 'pglite') await t.app.db.close();

      const granted = await npm([user.username, 'moderator'], env);
      expect(granted).toEqual({
        code: 0,
        out: `${user.username} is now a moderator: they are signed out everywhere and see the dispute desk once they sign in again.\n`,
      });
      const unknownUser = await npm(['nobody_by_this_name', 'moderator'], env);
      expect(unknownUser.code).toBe(1);
      expect(unknownUser.out).toContain('There is no user named "nobody_by_this_name".');
      const unknownRole = await npm([user.username, 'admin'], env);
      expect(unknownRole.code).toBe(1);
      expect(unknownRole.out).toContain('Unknown role "admin": use trader, moderator or operator.');
      expect((await npm([user.username], env)).code).toBe(1);

      const db = target === 'pglite' ? await openDatabase({ databaseUrl: undefined, dataDir }) : t.app.db;
      expect(await db.one('SELECT role FROM users WHERE id = $1', [user.id])).toEqual({ role: 'moderator' });
      if (target === 'pglite') await db.close();
      expect((await npm([user.username, 'trader'], env)).code).toBe(0);
      const after = target === 'pglite' ? await openDatabase({ databaseUrl: undefined, dataDir }) : t.app.db;
      expect(await after.one('SELECT role FROM users WHERE id = $1', [user.id])).toEqual({ role: 'trader' });
      if (target === 'pglite') await after.close();
    } finally {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

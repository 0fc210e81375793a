import { MODERATOR_SENDER } from '../../../contracts/chat.ts';
import { userRole, type UserRole } from '../../../contracts/security.ts';
import type { Db } from '../infra/db/db.ts';
import { sessionsRepository } from './sessions.repository.ts';
import { usersRepository } from './users.repository.ts';
import { auditRepository, COMMAND_LINE } from '../audit/audit.repository.ts';

/** Digits and letters that pass for others in a name: `M0derator`, `Adm1n`, `5upport`. */
const LOOK_ALIKES: Record<string, string> = { '0': 'o', '1': 'i', l: 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };
/** Separators a reader skips: `Peerex_Support` reads as `peerexsupport`. */
const SKIPPED = /[_.-]/g;

/**
 * What a name looks like to a reader (docs/rules.md "Look-alike names"): NFKC, case-folded, with the look-alike
 * digits and letters above mapped and the separators dropped.
 */
export function usernameSkeleton(username: string): string {
  return username
    .normalize('NFKC')
    .toLowerCase()
    .replace(SKIPPED, '')
    .replace(/[013457l]/g, (character) => LOOK_ALIKES[character] ?? character);
}

/** Skeletons that are exactly a staff name. */
const STAFF_NAMES = new Set(['mod', 'ops']);
/** Words a skeleton may neither start nor end with: `moderator_fan`, `peerex_support`, `theadmin`. */
const STAFF_WORDS = ['moderator', 'admin', 'support', 'peerex', 'system'];

/**
 * Names no trader may register, because lists, profiles and notifications would show them as staff: the
 * sender a moderator's chat messages carry ("Moderator", MODERATOR_SENDER) and every name that looks like a
 * staff name once its look-alikes are read as what they pass for. Names that exist are not touched (the demo's
 * `mod` and `ops` are made by the seed, not by signup).
 */
export function isReservedUsername(username: string): boolean {
  const skeleton = usernameSkeleton(username);
  if (skeleton === usernameSkeleton(MODERATOR_SENDER) || STAFF_NAMES.has(skeleton)) return true;
  return STAFF_WORDS.some((word) => skeleton.startsWith(word) || skeleton.endsWith(word));
}

/** What `npm run user:role` did: `ok` false for an unknown user or role (the script then exits 1), with the sentence it prints. */
export interface RoleChange {
  ok: boolean;
  sentence: string;
}

/** What each role becomes, in the sentence `npm run user:role` prints. */
const ROLE_CHANGED: Record<UserRole, (username: string) => string> = {
  moderator: (username) => `${username} is now a moderator: they are signed out everywhere and see the dispute desk once they sign in again.`,
  operator: (username) =>
    `${username} is now an operator: they are signed out everywhere and see the operator console once they sign in again.`,
  trader: (username) => `${username} is now a trader again: they are signed out everywhere and the staff pages are closed to them.`,
};

/**
 * Grants or takes back a role (docs/rules.md "Moderators", docs/operators.md "The role"): the only way a role
 * changes, from the command line of someone who holds the database. A change ends every session of the user in
 * the same transaction, so their sockets close and their push devices are unbound wherever they are (migration
 * 022), and they sign in again under the new role; every session lookup reads the role anyway. The change is
 * written in the audit log in that transaction too, by "command line".
 */
export async function setUserRole(db: Db, username: string, role: string, now: Date = new Date()): Promise<RoleChange> {
  const roles = userRole.options.join(', ').replace(/, ([^,]*)$/, ' or $1');
  if (!(userRole.options as readonly string[]).includes(role)) return { ok: false, sentence: `Unknown role "${role}": use ${roles}.` };
  const changed = await db.transaction(async (tx) => {
    const row = await usersRepository(tx).setRole(username, role as UserRole);
    if (row && row.previous !== row.role) {
      await sessionsRepository(tx).revokeAllOfUser(row.id, now);
      await auditRepository(tx).record({
        actor: COMMAND_LINE,
        action: 'role_changed',
        target: row.username,
        before: { role: row.previous },
        after: { role: row.role },
        at: now,
      });
    }
    return row;
  });
  if (!changed) return { ok: false, sentence: `There is no user named "${username}".` };
  if (changed.previous === changed.role) return { ok: true, sentence: `${changed.username} already is a ${changed.role}; nothing changed.` };
  return { ok: true, sentence: ROLE_CHANGED[changed.role](changed.username) };
}

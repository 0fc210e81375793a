import { MODERATOR_SENDER } from '../../../contracts/chat.ts';
import { userRole, type UserRole } from '../../../contracts/security.ts';
import type { Db } from '../db/db.ts';
import { sessionsRepository } from '../repositories/sessions.ts';
import { usersRepository } from '../repositories/users.ts';

/** Names no trader may register: the sender a moderator's chat messages carry, in any case. */
export const isReservedUsername = (username: string): boolean => username.toLowerCase() === MODERATOR_SENDER.toLowerCase();

/** What `npm run user:role` did: `ok` false for an unknown user or role (the script then exits 1), with the sentence it prints. */
export interface RoleChange {
  ok: boolean;
  sentence: string;
}

/**
 * Grants or takes back a role (docs/rules.md "Moderators"): the only way a role changes, from the command line
 * of someone who holds the database. A change ends every session of the user in the same transaction, so their
 * sockets close and their push devices are unbound wherever they are (migration 022), and they sign in again
 * under the new role; every session lookup reads the role anyway.
 */
export async function setUserRole(db: Db, username: string, role: string, now: Date = new Date()): Promise<RoleChange> {
  const roles = userRole.options.join(' or ');
  if (!(userRole.options as readonly string[]).includes(role)) return { ok: false, sentence: `Unknown role "${role}": use ${roles}.` };
  const changed = await db.transaction(async (tx) => {
    const row = await usersRepository(tx).setRole(username, role as UserRole);
    if (row && row.previous !== row.role) await sessionsRepository(tx).revokeAllOfUser(row.id, now);
    return row;
  });
  if (!changed) return { ok: false, sentence: `There is no user named "${username}".` };
  if (changed.previous === changed.role) return { ok: true, sentence: `${changed.username} already is a ${changed.role}; nothing changed.` };
  return {
    ok: true,
    sentence:
      changed.role === 'moderator'
        ? `${changed.username} is now a moderator: they are signed out everywhere and see the dispute desk once they sign in again.`
        : `${changed.username} is now a trader again: they are signed out everywhere and the dispute desk is closed to them.`,
  };
}

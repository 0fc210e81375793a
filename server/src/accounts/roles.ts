import { MODERATOR_SENDER } from '../../../contracts/chat.ts';
import { userRole, type UserRole } from '../../../contracts/security.ts';
import type { Queryable } from '../db/db.ts';
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
 * of someone who holds the database. The role counts from the user's next call, since every session lookup
 * reads it.
 */
export async function setUserRole(db: Queryable, username: string, role: string): Promise<RoleChange> {
  const roles = userRole.options.join(' or ');
  if (!(userRole.options as readonly string[]).includes(role)) return { ok: false, sentence: `Unknown role "${role}": use ${roles}.` };
  const changed = await usersRepository(db).setRole(username, role as UserRole);
  if (!changed) return { ok: false, sentence: `There is no user named "${username}".` };
  if (changed.previous === changed.role) return { ok: true, sentence: `${changed.username} already is a ${changed.role}; nothing changed.` };
  return {
    ok: true,
    sentence:
      changed.role === 'moderator'
        ? `${changed.username} is now a moderator: they see the dispute desk from their next request.`
        : `${changed.username} is now a trader again: the dispute desk is closed to them from their next request.`,
  };
}

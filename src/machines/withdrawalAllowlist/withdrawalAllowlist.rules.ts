import { z } from 'zod/mini';
import { allowlistRequest } from '../../../contracts/account-protections.ts';

export type AllowlistAddition = { network: string; address: string; label: string; password: string };

/**
 * The first problem of a new address as the contract words it (no network chosen, no address, a label too
 * long), or undefined when the server will take the call. The chart names the rule (`isAdditionValid`).
 */
export function additionProblem(addition: AllowlistAddition): string | undefined {
  const parsed = z.safeParse(allowlistRequest, { type: 'add', ...addition });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

export const allowlistRules = {
  isAdditionValid: (_: unknown, params: AllowlistAddition) => additionProblem(params) === undefined,
};

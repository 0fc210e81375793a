import { z } from 'zod/mini';
import { antiPhishingCode } from '../../../contracts/account-protections.ts';

/**
 * The code's problem as the contract words it (too short, too long, a character it refuses), or undefined
 * when the server will take it. The chart names the rule (`isCodeReady`) and antiPhishing.actors.ts binds it.
 */
export function antiPhishingCodeProblem(value: string): string | undefined {
  const parsed = z.safeParse(antiPhishingCode, value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

export const antiPhishingRules = {
  isCodeReady: (_: unknown, params: { code: string; password: string }) =>
    antiPhishingCodeProblem(params.code) === undefined && params.password !== '',
};

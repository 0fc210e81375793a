import { appPathOf } from '../machines/shared/appPath.ts';

/**
 * Where a trader who was sent to /login asked to go, kept in the login URL (`/login?redirect=/trades`) so that
 * signing in returns them there. Only a path of this site is taken: anything else (`//evil.example`,
 * `https://…`, `/\\evil`) would make the login page an open redirect, and falls back to the dashboard.
 */
export const RETURN_TO_PARAM = 'redirect';

export function returnTo(value: unknown): string | undefined {
  const path = typeof value === 'string' ? appPathOf(value) : null;
  if (path === null) return undefined;
  // The auth pages themselves are no destination: they would bounce straight back to /.
  if (/^\/(login|signup|forgot-password)(?:[/?#]|$)/.test(path)) return undefined;
  return path;
}

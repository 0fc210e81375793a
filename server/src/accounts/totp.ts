import { createGuardrails, generate, generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 as every authenticator app implements it. */
const PERIOD_SECONDS = 30;
/** ±1 step of clock drift between phone and server, expressed as otplib wants it: in seconds. */
const DRIFT_SECONDS = PERIOD_SECONDS;
export const TOTP_ISSUER = 'Peerex';

/**
 * otplib refuses secrets under 128 bits by default. New secrets are 160 bits, but the demo account's
 * fixed secret (JBSWY3DPEHPK3PXP, README "Demo accounts") is 80 bits and authenticator apps accept it, so
 * verification allows down to 80.
 */
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

export const newTotpSecret = (): string => generateSecret();

export const totpUri = (secret: string, username: string): string =>
  generateURI({ issuer: TOTP_ISSUER, label: username, secret, period: PERIOD_SECONDS });

/** The code for `at` (tests and the seed check use it; the server itself only verifies). */
export const totpCode = (secret: string, at: Date): Promise<string> =>
  generate({ secret, epoch: Math.floor(at.getTime() / 1000), period: PERIOD_SECONDS, guardrails });

/** The time step the code belongs to, or undefined when it matches none within the drift window. */
export async function totpStep(secret: string, code: string, at: Date): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(at.getTime() / 1000),
    period: PERIOD_SECONDS,
    epochTolerance: DRIFT_SECONDS,
    guardrails,
  }).catch(() => ({ valid: false as const }));
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

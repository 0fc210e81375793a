import type { Config } from '../config.ts';
import { deriveKeys, type AppKeys } from '../lib/secrets.ts';
import { createPasswordHasher, type Argon2Parameters, type PasswordHasher } from '../lib/passwords.ts';
import { shared } from './shared.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The app's only source of "now": injected in tests so they can move time. */
    now: () => Date;
    keys: AppKeys;
    passwords: PasswordHasher;
  }
}

export interface CorePluginOptions extends Record<string, unknown> {
  config: Config;
  now: () => Date;
  argon2: Argon2Parameters;
}

/** Tier 0: what every other plugin reads — configuration, the clock, keys and password hashing. */
export const corePlugin = shared<CorePluginOptions>('peerex-core', async (app, { config, now, argon2 }) => {
  app.decorate('config', config);
  app.decorate('now', now);
  app.decorate('keys', deriveKeys(config.appSecret));
  app.decorate('passwords', createPasswordHasher(argon2));
});

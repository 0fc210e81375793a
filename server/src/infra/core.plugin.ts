import { isPublishedAppSecret, type Config, type ServerConfig } from '../config.ts';
import { deriveKeys, loadAppSecret, type AppKeys } from './secrets.ts';
import { createPasswordHasher, type Argon2Parameters, type PasswordHasher } from './passwords.ts';
import { shared } from './shared.ts';
import { addEvmNetworks } from '../wallets/networks.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration, with APP_SECRET resolved (generated into DATA_DIR when unset). */
    config: ServerConfig;
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
  const secret = await loadAppSecret(config);
  if (secret.source !== 'APP_SECRET') app.log.info(`APP_SECRET is unset: keys come from ${secret.source}`);
  else if (isPublishedAppSecret(secret.value)) {
    // Allowed outside production (loadConfig refuses it there), for reading an old development database.
    app.log.warn(
      'APP_SECRET is the development secret earlier versions published in their source: anyone can forge channel signatures, ' +
        'trigger-API calls and Beams tokens for this server. Use it only on a machine nobody else reaches (README "Secrets").',
    );
  }
  app.decorate('config', { ...config, appSecret: secret.value });
  // Before anything derives or checks an address: the configured EVM networks' keys name Ethereum's rules.
  addEvmNetworks(config.evmNetworks.map((evm) => evm.network));
  app.decorate('now', now);
  app.decorate('keys', deriveKeys(secret.value));
  app.decorate('passwords', createPasswordHasher(argon2));
});

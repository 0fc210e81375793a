import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { loggerOptions, startupLine } from './infra/logging.ts';
import { AppSecretError } from './infra/secrets.ts';
import { WalletKeyError } from './wallets/keys.ts';

/** How long in-flight requests get to finish on SIGINT/SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** How often, while shutting down, connections that finished their last request are ended. */
const IDLE_SWEEP_MS = 100;

/** A configuration problem is the operator's to fix: say what it is, without a stack trace. */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

async function main() {
  const config = configOrExit();

  const app = await buildApp({
    config,
    logger: loggerOptions(config),
  });

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    // The HTTP server's close ends only the keep-alive connections idle at that moment. One whose request was
    // still running goes idle when its answer is sent, and would then hold the close (and the process) until
    // its keep-alive timeout, far past the grace: end such connections as soon as they are idle.
    const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  // Instead of Fastify's "listening" line, the one that says where the product is, its database and where mail goes.
  await app.listen({ port: config.port, host: config.host, listenTextResolver: (address) => startupLine(config, address) });
}

main().catch((error: unknown) => {
  // Like a configuration problem, a wallet key or a secret file that is missing or wrong is the operator's to fix.
  if (error instanceof WalletKeyError || error instanceof AppSecretError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error('Peerex failed to start:', error);
  process.exit(1);
});

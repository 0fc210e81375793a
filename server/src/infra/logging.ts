import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The process's logger. In development, lines a person reads (pino-pretty: time, level, message, in
 * colour on a terminal); in production, one JSON object per line, for a log collector. LOG_LEVEL sets the
 * level; every request is logged at `debug`, so the default `info` shows what matters (start-up, warnings,
 * errors, the dev outbox's mails) and LOG_LEVEL=debug shows the traffic too. Fastify's own "listening" line is
 * replaced by `startupLine` (app.ts), so the console says once, in full, where the product is.
 */
export function loggerOptions(config: Config): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: config.logLevel,
    // Bearer tokens must never reach a log line.
    redact: ['req.headers.authorization'],
    ...(config.nodeEnv === 'development'
      ? {
          transport: {
            target: 'pino-pretty',
            // A line's data on the same line; a list of twenty migrations is not worth twenty lines.
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId,migrations', singleLine: true },
          },
        }
      : {}),
  };
}

/** An SMTP URL without its credentials: `smtp://user:pass@mail:587` → `smtp://mail:587`. */
function smtpServerOf(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.host}`;
}

/** A PostgreSQL URL without its password: `postgres://peerex:pw@db:5432/peerex` → `postgres://peerex@db:5432/peerex`. */
function databaseOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.password = '';
  return url.toString();
}

/**
 * The one line an operator reads to know the product started: where it answers, where browsers open it
 * (PUBLIC_URL: the push service and the realtime socket answer pages of that origin, docs/rules.md "Hosts and
 * origins"), which database it uses and where mail goes. Credentials in the URLs are left out.
 */
export function startupLine(config: Config, address: string): string {
  const database = config.databaseUrl
    ? `PostgreSQL at ${databaseOf(config.databaseUrl)}`
    : `embedded PGlite in ${config.dataDir === 'memory://' ? 'memory (nothing is kept)' : `${config.dataDir}/pgdata`}`;
  const mail = config.smtpUrl ? `mail through ${smtpServerOf(config.smtpUrl)}` : 'mail printed on this console (no SMTP_URL)';
  const redis = config.redisUrl ? `; Redis at ${new URL(config.redisUrl).host}` : '';
  return `Peerex is running at ${address} (browsers open ${config.publicUrl}) — ${database}; ${mail}${redis}`;
}

import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** True when a built web app (WEB_DIST/index.html) is there to serve. */
export const hasWebApp = (webDist: string): boolean => existsSync(join(webDist, 'index.html'));

/** Vite puts content-hashed files under /assets/: a new build gets new names, so they can be cached for good. */
const HASHED_ASSETS = /[\\/]assets[\\/]/;

/**
 * The built web app at /. Unknown paths reach the app's not-found handler, which answers GETs for
 * pages (not /api/*, not files) with index.html so the client router can take over.
 */
export async function webAppPlugin(app: FastifyInstance, { root }: { root: string }) {
  await app.register(fastifyStatic, {
    root: resolve(root),
    index: 'index.html',
    // The build writes a .br and a .gz beside each text file (vite.config.ts): the one the browser accepts is
    // sent, with `Vary: Accept-Encoding`, and nothing is compressed per request.
    preCompressed: true,
    // index.html must be revalidated so a new deployment is picked up at once; so must /service-worker.js (the
    // push worker, realtime.md 6.1), which browsers would otherwise keep running in its old version.
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        HASHED_ASSETS.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
}

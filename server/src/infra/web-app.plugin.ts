import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sendRefusal } from './http/errors.ts';
import { refuse } from '../sentences.ts';

/** True when a built web app (WEB_DIST/index.html) is there to serve. */
export const hasWebApp = (webDist: string): boolean => existsSync(join(webDist, 'index.html'));

/** Vite puts content-hashed files under /assets/: a new build gets new names, so they can be cached for good. */
const HASHED_ASSETS = /[\\/]assets[\\/]/;

/** Written by the build (vite.config.ts `routePages`): each page route's path pattern and its copy of index.html. */
const PAGES_INDEX = 'pages/pages.json';

interface RoutePage {
  /** `/offers/$id`: a `$` segment matches any one segment. */
  segments: string[];
  page: string;
  params: number;
}

/**
 * The page to answer a page path with: the copy of index.html made for its route, which preloads that route's
 * code, or index.html itself for a path no route has (the web app shows its not-found page) and for a build
 * without the index. A path with a literal segment wins over one with a parameter (`/offers/create`, `/offers/$id`).
 */
export function pageFinder(webDist: string): (url: string) => string {
  const indexFile = join(webDist, PAGES_INDEX);
  if (!existsSync(indexFile)) return () => 'index.html';
  const routes: RoutePage[] = (JSON.parse(readFileSync(indexFile, 'utf8')) as { path: string; page: string }[])
    .map(({ path, page }) => {
      const segments = path.split('/').filter(Boolean);
      return { segments, page, params: segments.filter((segment) => segment.startsWith('$')).length };
    })
    .sort((a, b) => a.params - b.params);
  return (url) => {
    const segments = (url.split('?', 1)[0] ?? '').split('/').filter(Boolean);
    const route = routes.find(
      (candidate) =>
        candidate.segments.length === segments.length &&
        candidate.segments.every((segment, index) => segment.startsWith('$') || segment === segments[index]),
    );
    return route?.page ?? 'index.html';
  };
}

/**
 * The built web app at /. Other page paths reach the app's not-found handler, which answers GETs for pages (not
 * /api/*, not files) the same way, with the route's page (`pageFinder`), so the client router can take over.
 */
export async function webAppPlugin(app: FastifyInstance, { root, pageFor }: { root: string; pageFor: (url: string) => string }) {
  // What @fastify/static refuses itself (a directory such as /assets/ or /assets//, a path that climbs out of the
  // root) comes as an error with a 4xx status: answered as the missing file it is, not as the server's 500 with a
  // stack in the error log, which anyone could flood. Anything else is still a bug.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.debug({ status, code: error.code }, 'static file refused');
      return sendRefusal(reply, refuse.noSuchCall());
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendRefusal(reply, refuse.internalError());
  });
  await app.register(fastifyStatic, {
    root: resolve(root),
    // No directory answers with an index file: `/` is a page like the others (below).
    index: false,
    // The build writes a .br and a .gz beside each text file (vite.config.ts): the one the browser accepts is
    // sent, with `Vary: Accept-Encoding`, and nothing is compressed per request.
    preCompressed: true,
    // Pages must be revalidated so a new deployment is picked up at once; so must /service-worker.js (the push
    // worker, docs/pusher-and-beams.md "Service worker"), which browsers would otherwise keep running in its old version.
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        HASHED_ASSETS.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // The dashboard's page, with its preloads, rather than the bare index.html.
  app.get('/', (request, reply) => reply.header('cache-control', 'no-cache').sendFile(pageFor(request.url)));
}

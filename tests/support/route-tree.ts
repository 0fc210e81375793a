import type { FastifyInstance } from 'fastify';

/** `/x/*` → `/x*`, and no trailing slash: how the tests write a route. */
export const normaliseRoute = (route: string) => route.replace(/\/\*$/, '*').replace(/\/+$/, '');

/** One registered route: `METHOD path`, and its onSend hooks as Fastify prints them (`["anonymous()","onSend()"]`). */
export interface RegisteredRoute {
  call: string;
  onSend: string;
}

/**
 * Every route the app registered, from its own printed route tree (HEAD, which Fastify adds to each GET, left out).
 * The tree splits paths at shared prefixes, so each line's path is its parent's plus its own.
 */
export function routeTreeOf(app: FastifyInstance): RegisteredRoute[] {
  const found: RegisteredRoute[] = [];
  const prefixes: string[] = [];
  let last: RegisteredRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false, includeHooks: true }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match) {
      const depth = (match[1] ?? '').length / 4;
      const path = `${depth === 0 ? '' : prefixes[depth - 1]}${match[2]}`;
      prefixes[depth] = path;
      last = (match[3] ?? '')
        .split(', ')
        .filter((method) => method !== '' && method !== 'HEAD')
        .map((method) => ({ call: `${method} ${normaliseRoute(path)}`, onSend: '' }));
      found.push(...last);
    } else if (/^((?:│ {3}| {4})+)([^•│ ].*?) \(([A-Z, ]+)\)$/.test(line)) {
      // The same path again, for methods whose hooks differ from the line above (`│   /api/health (POST)`).
      const [, indent = '', segment = '', methods = ''] = /^((?:│ {3}| {4})+)([^•│ ].*?) \(([A-Z, ]+)\)$/.exec(line) ?? [];
      const depth = indent.length / 4 - 1;
      const path = `${depth === 0 ? '' : prefixes[depth - 1]}${segment}`;
      last = methods
        .split(', ')
        .filter((method) => method !== '' && method !== 'HEAD')
        .map((method) => ({ call: `${method} ${normaliseRoute(path)}`, onSend: '' }));
      found.push(...last);
    } else if (line.includes('• (onSend)')) {
      for (const route of last) route.onSend = line.slice(line.indexOf('['));
    }
  }
  return found;
}

/** `METHOD path` of every registered route, sorted. */
export const registeredRoutes = (app: FastifyInstance): string[] => routeTreeOf(app).map((route) => route.call).sort();

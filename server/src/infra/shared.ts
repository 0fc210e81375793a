import type { FastifyPluginAsync } from 'fastify';

/**
 * Marks a plugin as shared with its parent, which is what the `fastify-plugin` package does: Fastify
 * then skips encapsulation, so decorators and hooks it adds are visible to every later plugin and route.
 * Written out here (two documented symbols) rather than pulling a dependency in for it.
 */
export function shared<Options extends Record<string, unknown>>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
  });
}

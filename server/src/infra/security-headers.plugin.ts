import helmet from '@fastify/helmet';
import { shared } from './shared.ts';

/**
 * What the browser may load and run on our pages. The built web app is only files from this origin:
 * scripts are its bundles (no inline script, no eval), styles its stylesheet (React and Ark set styles
 * through the CSSOM, which `style-src` does not govern), images its own SVGs. Nothing may frame a page,
 * so the trade buttons cannot be clickjacked. `'self'` covers the built-in realtime socket (same origin);
 * an external Pusher-compatible server's origin is added by configuration.
 */
export const CONTENT_SECURITY_POLICY = Object.freeze({
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
});

/**
 * Tier 0: security headers on every answer — pages, static files, API answers and refusals — through
 * helmet. helmet's default CSP is replaced rather than extended: it allows inline styles from any https
 * origin and upgrades every request to https, which breaks a server reached over plain http on a LAN.
 */
export interface SecurityHeadersOptions extends Record<string, unknown> {
  /** Origins the pages may open sockets to besides their own (an external realtime server). */
  connectSources?: string[];
}

/**
 * HSTS: a browser that reached us over https keeps to https for a year, this host and its subdomains. Sent
 * only on answers to a request that came over TLS, to this process or (with TRUST_PROXY) to the proxy in front
 * of it as its `X-Forwarded-Proto` says: over plain http the header means nothing to a browser, and sent
 * there it would pin https onto a host that may not serve it (a LAN address, a development machine). No
 * `preload`: asking to be built into browsers is the operator's decision, and hard to take back.
 */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

export const securityHeadersPlugin = shared<SecurityHeadersOptions>('peerex-security-headers', async (app, options) => {
  const directives = {
    ...CONTENT_SECURITY_POLICY,
    'connect-src': [...CONTENT_SECURITY_POLICY['connect-src'], ...(options.connectSources ?? [])],
  };
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    // Trade channels and offer ids in URLs stay on this site.
    referrerPolicy: { policy: 'no-referrer' },
    // helmet would send it on every answer, plain http included; see STRICT_TRANSPORT_SECURITY.
    strictTransportSecurity: false,
  });
  // Fastify's `protocol` is the socket's unless the app trusts proxies (TRUST_PROXY), and only then reads
  // X-Forwarded-Proto: a client talking to us directly cannot ask for the header.
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  });
});

import helmet from '@fastify/helmet';
import { shared } from './shared.ts';

/**
 * What the browser may load and run on our pages. The built web app is only files from this origin:
 * scripts are its bundles (no inline script, no eval), styles its stylesheet (React and Ark set styles
 * through the CSSOM, which `style-src` does not govern), images its own SVGs. Nothing may frame a page,
 * so the trade buttons cannot be clickjacked. The realtime socket and the push service worker will add
 * their origins here when they arrive; `'self'` already covers a same-origin websocket.
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
export const securityHeadersPlugin = shared('peerex-security-headers', async (app) => {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { ...CONTENT_SECURITY_POLICY } },
    frameguard: { action: 'deny' },
    // Trade channels and offer ids in URLs stay on this site.
    referrerPolicy: { policy: 'no-referrer' },
  });
});

import type { IncomingMessage } from 'node:http';
import { HOST_PATTERN, type Config } from '../../config.ts';
import { isLoopbackHost } from './client-address.ts';

/**
 * Which names this server answers to (docs/rules.md "Hosts and origins"): localhost, 127.0.0.1 and [::1] on any
 * port, PUBLIC_URL's host and ALLOWED_HOSTS. Two attacks need it:
 * - DNS rebinding: a page on `attacker.example` re-points its name at 127.0.0.1 and, being same-origin with
 *   itself, reads what a server on this machine answers. Its requests still say `Host: attacker.example`, so on
 *   a loopback HOST anything but the names above is refused (403) before routing.
 * - Cross-site websockets: a browser lets any page open a websocket to any server, with the cookies and network
 *   position of the person browsing. The page's origin is in the upgrade's `Origin`, so an upgrade whose Origin is
 *   present and not one of these origins is refused (403) on any HOST. Clients that are not browsers send none.
 */
export interface HostRules {
  /** True on a loopback HOST, where the Host header is checked. */
  readonly checksHost: boolean;
  /** Whether a request with this Host header is answered (always true on a reachable HOST). */
  hostAllowed(host: string | undefined): boolean;
  /** Whether a websocket upgrade with this Origin header may open a socket (no Origin: yes). */
  originAllowed(origin: string | undefined): boolean;
  /** Both checks for a websocket upgrade of the built-in realtime server. */
  upgradeAllowed(request: IncomingMessage): boolean;
}

/** The names every install answers to; any port. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

interface HostEntry {
  name: string;
  /** Undefined: any port. */
  port: string | undefined;
}

/** `name[:port]` lower-cased with a trailing dot dropped (`localhost.` is `localhost`), or undefined when it is neither. */
function parseHost(text: string): HostEntry | undefined {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  const name = (match[1] ?? '').replace(/\.$/, '');
  if (!HOST_PATTERN.test(name)) return undefined;
  return { name, port: match[2] };
}

const SCHEMES = new Set(['http:', 'https:']);

export function hostRules(config: Pick<Config, 'host' | 'publicUrl' | 'allowedHosts'>): HostRules {
  const publicUrl = new URL(config.publicUrl);
  // PUBLIC_URL's name on any port: what rebinding needs is a name the attacker holds, whatever the port.
  const publicName = publicUrl.hostname.toLowerCase();
  const listed = config.allowedHosts.map(parseHost).filter((entry): entry is HostEntry => entry !== undefined);
  const known = (entry: HostEntry): boolean =>
    LOOPBACK_NAMES.has(entry.name) ||
    entry.name === publicName ||
    listed.some((allowed) => allowed.name === entry.name && (allowed.port === undefined || allowed.port === entry.port));
  const checksHost = isLoopbackHost(config.host);

  const hostAllowed = (host: string | undefined): boolean => {
    if (!checksHost) return true;
    const entry = host === undefined ? undefined : parseHost(host);
    return entry !== undefined && known(entry);
  };

  const originAllowed = (origin: string | undefined): boolean => {
    if (origin === undefined) return true;
    if (origin === publicUrl.origin) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      // `null` (a sandboxed frame, a file), or not an origin at all.
      return false;
    }
    if (!SCHEMES.has(url.protocol)) return false;
    const entry = parseHost(url.host);
    return entry !== undefined && known(entry);
  };

  return {
    checksHost,
    hostAllowed,
    originAllowed,
    upgradeAllowed(request) {
      const origin = request.headers.origin;
      return hostAllowed(request.headers.host) && originAllowed(typeof origin === 'string' ? origin : undefined);
    },
  };
}

import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 and ::1, also when written as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const family = isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a listening address (`HOST`) can be reached only from this machine. Any other name counts as reachable. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return bare.toLowerCase() === 'localhost' || isLoopbackAddress(bare);
}

/** Headers a reverse proxy adds: a request carrying one came through a proxy, whatever its socket says. */
export function hasProxyHeader(request: FastifyRequest): boolean {
  return Object.keys(request.headers).some((name) => name === 'forwarded' || name === 'x-real-ip' || name.startsWith('x-forwarded-'));
}

/**
 * The request came straight from this machine: its socket is loopback (not `request.ip`, which TRUST_PROXY
 * takes from a header the client writes) and no proxy passed it on.
 */
export const isDirectLocalRequest = (request: FastifyRequest): boolean =>
  isLoopbackAddress(request.socket.remoteAddress) && !hasProxyHeader(request);

/**
 * The client as counted by rate limits and sign-in failures: its IP (from X-Forwarded-For only with
 * TRUST_PROXY), with an IPv6 address reduced to its /64, because one home or server gets a whole /64 and
 * could otherwise count as 2^64 clients.
 */
export const clientAddress = (request: FastifyRequest): string => normalizeIP(request.ip);

/**
 * `clientAddress` for a request Fastify never wraps: a websocket upgrade (the realtime server's connections
 * per address). With TRUST_PROXY Fastify trusts every hop, so its `request.ip` is the first address of
 * X-Forwarded-For; without it, the socket's.
 */
export function upgradeClientAddress(request: IncomingMessage, trustProxy: boolean): string {
  const header = request.headers['x-forwarded-for'];
  const first = trustProxy && typeof header === 'string' ? header.split(',').map((part) => part.trim()).find((part) => part !== '') : undefined;
  return normalizeIP(first ?? request.socket.remoteAddress ?? '');
}

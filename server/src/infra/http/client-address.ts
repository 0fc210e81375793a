import proxyAddr from '@fastify/proxy-addr';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { TrustProxy } from '../../config.ts';

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

/** Whether the address at `hop` (0 = the socket's peer, 1 = the right-most X-Forwarded-For entry, …) is a proxy of ours. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as the function Fastify and proxy-addr take, or false for no proxy. A hop count trusts the peer and
 * the entries it and the proxies before it added, and nothing further left; Fastify given the bare number trusts no
 * hop at all (its request.js: "hop-count-only trust ... fail closed"), so every client would be the load balancer.
 */
export function proxyTrust(trust: TrustProxy): ProxyTrust | false {
  switch (trust.kind) {
    case 'none':
      return false;
    case 'hops': {
      const { hops } = trust;
      return (_address, hop) => hop < hops;
    }
    case 'addresses':
      return proxyAddr.compile(trust.addresses);
  }
}

/**
 * The client as counted by rate limits and sign-in failures: its IP (the right-most X-Forwarded-For entry no
 * trusted proxy added, per TRUST_PROXY; else the socket's), with an IPv6 address reduced to its /64, because one
 * home or server gets a whole /64 and could otherwise count as 2^64 clients.
 */
export const clientAddress = (request: FastifyRequest): string => normalizeIP(request.ip);

/**
 * `clientAddress` for a request Fastify never wraps: a websocket upgrade (the realtime server's connections
 * per address), with the same trust as Fastify's `request.ip`.
 */
export function upgradeClientAddress(request: IncomingMessage, trust: ProxyTrust | false): string {
  const address = trust ? proxyAddr(request, trust) : request.socket.remoteAddress;
  return normalizeIP(address ?? '');
}

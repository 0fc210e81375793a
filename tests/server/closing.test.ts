import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentences } from '../../server/src/sentences.ts';
import { createTestApp, type TestApp } from '../support/server.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp('pglite');
});
afterAll(async () => {
  await t?.close().catch(() => undefined);
});

describe('a request reaching a process that is shutting down', () => {
  it('is refused with 503 in the envelope, with the security headers, and the connection closes', async () => {
    const app = t.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));

    // The first request is in flight (its headers are in, its body is not) when shutdown begins; a second one
    // is pipelined behind it, so it reaches the router only after shutdown has begun. That one asks for readiness,
    // as a load balancer does: it must be told this process is leaving.
    const arrived = new Promise<void>((resolve) => app.server.once('request', () => resolve()));
    socket.write('POST /api/health HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n');
    await arrived;
    const closed = app.close();
    socket.write('{}GET /api/ready HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await ended;
    await closed;

    const responses = received.split(/(?=HTTP\/1\.1 )/);
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200 /);
    const [head, body] = responses[1]!.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nconnection: close/i);
    expect(head).toMatch(/\r\nx-content-type-options: nosniff/i);
    expect(JSON.parse(body!)).toEqual({ success: false, code: 'server.shutting_down', info: sentences.shuttingDown });
  });
});

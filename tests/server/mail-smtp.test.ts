import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_WALLET_XPUBS, type TestApp } from '../support/server.ts';
import { newTrader } from '../support/server-flows.ts';
import { TEST_VAPID_KEYS } from '../support/push.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a random port, as a plain local relay would be (no TLS, no auth). */
async function startSmtpServer() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('mail through SMTP_URL', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    // No injected transport: the app builds its own from SMTP_URL, as in production.
    t = await createTestApp('pglite', {
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Peerex Test <codes@peerex.test>' },
      mailTransport: 'from-config',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers the signup code, in the subject, the text and the HTML', async () => {
    const { email } = newTrader();
    const answer = await t.post('/api/security/validate_email/', { type: 'request', email });
    expect(answer.status).toBe(200);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.from).toBe('codes@peerex.test');
    expect(mail?.to).toEqual([email]);
    const code = /^Subject: Your Peerex verification code: (\d{6})$/m.exec(mail?.raw ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail?.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail?.raw).toMatch(/Content-Type: text\/html/);
    expect(mail?.raw.split(code ?? 'never').length).toBeGreaterThanOrEqual(4);

    const verified = await t.post('/api/security/validate_email/', { type: 'verify', email, code });
    expect(verified.status).toBe(200);
  });

  it('has no dev outbox when SMTP is configured', async () => {
    expect((await t.post('/api/dev/outbox/', {})).status).toBe(404);
  });

  it('answers 503 with a sentence when the SMTP server is down', async () => {
    const down = await createTestApp('pglite', { env: { SMTP_URL: 'smtp://127.0.0.1:1' }, mailTransport: 'from-config' });
    try {
      expect(await down.post('/api/security/validate_email/', { type: 'request', email: newTrader().email })).toEqual({
        status: 503,
        body: { success: false, info: 'We could not send the email right now. Please try again in a few minutes.' },
      });
    } finally {
      await down.close();
    }
  });
});

describe('the dev outbox', () => {
  it('keeps the latest mails for POST /api/dev/outbox/ in development without SMTP', async () => {
    const t = await createTestApp('pglite', { env: { NODE_ENV: 'development' } });
    try {
      const { email } = newTrader();
      await t.post('/api/security/validate_email/', { type: 'request', email });
      const answer = await t.post<Array<{ to: string; subject: string; text: string; created: string }>>('/api/dev/outbox/', {});
      expect(answer.status).toBe(200);
      expect(answer.body.info).toEqual([
        { to: email, subject: expect.stringMatching(/^Your Peerex verification code: \d{6}$/), text: expect.any(String), created: t.clock.now().toISOString() },
      ]);
    } finally {
      await t.close();
    }
  });

  it('does not exist in production', async () => {
    const t = await createTestApp('pglite', { env: { NODE_ENV: 'production', ...TEST_WALLET_XPUBS, ...TEST_VAPID_KEYS } });
    try {
      expect(await t.post('/api/dev/outbox/', {})).toEqual({
        status: 404,
        body: { success: false, info: 'There is no such API call.' },
      });
    } finally {
      await t.close();
    }
  });
});

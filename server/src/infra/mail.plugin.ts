import { memoryOutbox, smtpTransport, withAntiPhishingCode, type Mail, type MailTransport, type MemoryOutbox } from './mail.ts';
import { userProtectionsRepository } from '../accounts/users.repository.ts';
import { shared } from './shared.ts';

export interface Mailer {
  /** Sends and waits for the transport to accept the mail; throws when it cannot. */
  send(mail: Mail): Promise<void>;
  /**
   * Sends without making the caller wait. Used where the time a send takes would reveal something
   * (a reset mail goes only to existing accounts); a failure is logged.
   */
  sendInBackground(mail: Mail): void;
  /** Resolves once every background send has finished (tests, shutdown). */
  settled(): Promise<void>;
  /** The in-memory outbox, when mail is kept instead of sent. */
  readonly outbox: MemoryOutbox | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export interface MailPluginOptions extends Record<string, unknown> {
  /** Injected transport (tests); otherwise SMTP_URL, or the console outbox when it is unset. */
  transport?: MailTransport | MemoryOutbox;
}

const isOutbox = (transport: MailTransport): transport is MemoryOutbox => 'recent' in transport;

/**
 * Tier 1 (after the database): mail through SMTP, or into the dev outbox printed on the console. Every mail
 * to an address whose account has an anti-phishing code carries it (docs/rules.md "Account protections"):
 * looked up here, at the one door every mail goes through, so a new mail cannot forget it.
 */
export const mailPlugin = shared<MailPluginOptions>('peerex-mail', async (app, { transport: injected }) => {
  const transport =
    injected ??
    (app.config.smtpUrl
      ? smtpTransport(app.config.smtpUrl)
      : memoryOutbox({
          now: app.now,
          print: (mail) =>
            app.log.info(`dev outbox: mail to ${mail.to}\n  Subject: ${mail.subject}\n\n${mail.text}`),
        }));
  const from = app.config.mailFrom;
  const inFlight = new Set<Promise<void>>();

  async function deliver(mail: Mail): Promise<void> {
    const code = await userProtectionsRepository(app.db).antiPhishingCodeOf(mail.to);
    await transport.deliver({ ...(code === undefined ? mail : withAntiPhishingCode(mail, code)), from });
  }

  const mailer: Mailer = {
    send: deliver,
    sendInBackground(mail) {
      const sending = deliver(mail)
        .catch((error: unknown) => app.log.error({ err: error, subject: mail.subject }, 'background mail failed'))
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async settled() {
      await Promise.all([...inFlight]);
    },
    outbox: isOutbox(transport) ? transport : undefined,
  };

  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => {
    await mailer.settled();
    await transport.close();
  });
});

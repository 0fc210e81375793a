import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface SentMail {
  to: string;
  subject: string;
  text: string;
  /** Kept for tests of what the HTML part says; the dev outbox answers the text only (contracts/system.ts). */
  html: string;
  /** ISO timestamp. */
  created: string;
}

/** Where mail goes: SMTP in production, the in-memory outbox in development and tests. */
export interface MailTransport {
  deliver(mail: Mail & { from: string }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Through nodemailer to SMTP_URL. `smtp://` connects in plain text and upgrades with STARTTLS when the
 * server offers it; `smtps://` is TLS from the first byte. Credentials come from the URL.
 * nodemailer is loaded with the first mail, not at start: its modules and its ES import of `node:http` (which on
 * Node 22 and later loads undici for that module's `WebSocket`) were a few tens of milliseconds of every start
 * (bench/README.md "Restart to ready"); the production build leaves it out of the bundle for that
 * (scripts/build-server.ts `EXTERNAL`).
 */
export function smtpTransport(url: string): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  const opened = () => (transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)));
  return {
    async deliver(mail) {
      await (await opened()).sendMail(mail);
    },
    async close() {
      if (transporter) (await transporter).close();
    },
  };
}

/** The outbox keeps only what a developer looks at: the latest mails. */
const OUTBOX_CAPACITY = 50;

export interface MemoryOutbox extends MailTransport {
  /** Newest first. */
  recent(): SentMail[];
}

/**
 * Keeps mails in memory instead of sending them (SMTP_URL unset). `print` shows each one on the
 * console so a developer sees the code without opening anything; tests pass no printer.
 */
export function memoryOutbox(options: { print?: (mail: SentMail) => void; now?: () => Date } = {}): MemoryOutbox {
  const mails: SentMail[] = [];
  const now = options.now ?? (() => new Date());
  return {
    async deliver({ to, subject, text, html }) {
      const sent = { to, subject, text, html, created: now().toISOString() };
      mails.unshift(sent);
      mails.length = Math.min(mails.length, OUTBOX_CAPACITY);
      options.print?.(sent);
    },
    async close() {},
    recent: () => mails.map((mail) => ({ ...mail })),
  };
}

export type CodePurpose = 'signup' | 'reset';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const htmlPage = (body: string) => `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">${body}</body></html>`;

/** The line that proves a mail is ours (docs/rules.md "Account protections"), as both parts print it. */
export const antiPhishingLine = (code: string) => `Your anti-phishing code: ${code}`;

/**
 * The mail with the recipient's anti-phishing code as its first line, in the text and in the HTML part, where
 * the trader looks before anything else. The mailer stamps every mail to an account that has a code, so no
 * mail builder can forget it. The contract's alphabet keeps the code plain text; it is escaped all the same.
 */
export function withAntiPhishingCode(mail: Mail, code: string): Mail {
  const banner =
    `<p style="margin:0 0 16px;padding:8px 12px;border:1px solid #999;border-radius:6px;font-weight:600">` +
    `${escapeHtml(antiPhishingLine(code))}</p>`;
  const bodyOpen = /<body\b[^>]*>/i;
  return {
    ...mail,
    text: `${antiPhishingLine(code)}\n\n${mail.text}`,
    html: bodyOpen.test(mail.html) ? mail.html.replace(bodyOpen, (tag) => `${tag}${banner}`) : `${banner}${mail.html}`,
  };
}

/** The mail that carries an email code: the code in the subject (signup), in plain text and in simple HTML. */
export function codeMail(purpose: CodePurpose, to: string, code: string, validMinutes: number): Mail {
  const subject =
    purpose === 'signup' ? `Your Peerex verification code: ${code}` : 'Your Peerex password reset code';
  const intro =
    purpose === 'signup'
      ? 'Use this code to verify your email address and finish creating your Peerex account:'
      : 'Use this code to choose a new password for your Peerex account:';
  const outro = `The code is valid for ${validMinutes} minutes. If you did not ask for it, you can ignore this email.`;
  return {
    to,
    subject,
    text: `${intro}\n\n    ${code}\n\n${outro}\n`,
    html: htmlPage(
      `<p>${escapeHtml(intro)}</p>` +
        `<p style="font-size:28px;font-weight:700;letter-spacing:6px;font-family:monospace">${code}</p>` +
        `<p style="color:#555">${escapeHtml(outro)}</p>`,
    ),
  };
}

/** A mail that tells the owner what happened to their account: a subject and a few short paragraphs. */
export function noticeMail(to: string, subject: string, paragraphs: readonly string[]): Mail {
  return {
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: htmlPage(paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('')),
  };
}

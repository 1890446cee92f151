/**
 * Outgoing email and SMS. Email goes through SMTP (nodemailer) when configured; otherwise, and for
 * SMS always, into the development inbox kept in memory (listed at GET /dev/mail). The inbox is
 * off in production unless DEV_INBOX=true.
 */
import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AccountsConfig } from '../config/accounts';

export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  links: string[];
}

export interface InboxMessage extends OutgoingMessage {
  id: string;
  kind: 'email' | 'sms';
  sentAt: string;
}

export class DevInbox {
  private messages: InboxMessage[] = [];
  constructor(private readonly max = 500) {}

  add(kind: 'email' | 'sms', msg: OutgoingMessage): InboxMessage {
    const entry: InboxMessage = { id: randomUUID(), kind, sentAt: new Date().toISOString(), ...msg };
    this.messages.push(entry);
    if (this.messages.length > this.max) this.messages.splice(0, this.messages.length - this.max);
    return entry;
  }

  /** Newest first. */
  list(): InboxMessage[] {
    return [...this.messages].reverse();
  }
}

export interface Mailer {
  readonly inbox?: DevInbox;
  canSendSms: boolean;
  sendEmail(msg: OutgoingMessage): Promise<void>;
  sendSms(phone: string, text: string): Promise<void>;
  close(): void;
}

export function createMailer(cfg: AccountsConfig): Mailer {
  const inbox = cfg.devInbox !== 'off' ? new DevInbox() : undefined;
  let transport: Transporter | undefined;
  if (cfg.smtp) {
    transport = nodemailer.createTransport({
      host: cfg.smtp.host,
      port: cfg.smtp.port,
      secure: cfg.smtp.port === 465,
      auth: cfg.smtp.user ? { user: cfg.smtp.user, pass: cfg.smtp.pass ?? '' } : undefined,
    });
  }
  return {
    inbox,
    canSendSms: Boolean(inbox),
    async sendEmail(msg) {
      if (transport && cfg.smtp) {
        await transport.sendMail({ from: cfg.smtp.from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
        return;
      }
      if (!inbox) throw new Error('no mail transport: set SMTP_HOST or DEV_INBOX=true');
      inbox.add('email', msg);
    },
    async sendSms(phone, text) {
      if (!inbox) throw new Error('no SMS transport');
      inbox.add('sms', { to: `+${phone}`, subject: 'SMS', text, links: [] });
    },
    close() {
      transport?.close();
    },
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A readable page of the inbox for a browser. */
export function renderInboxHtml(messages: InboxMessage[]): string {
  const items = messages
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">${escapeHtml(m.kind)} to <b>${escapeHtml(m.to)}</b> at ${escapeHtml(m.sentAt)}</p>
  <pre>${escapeHtml(m.text)}</pre>
  ${m.links.map((l) => `<p><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></p>`).join('\n  ')}
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Development inbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}
article{border:1px solid #ccc;border-radius:6px;padding:0 1rem;margin:1rem 0}.meta{color:#555}
pre{white-space:pre-wrap}a{word-break:break-all}</style></head>
<body><h1>Development inbox</h1><p>${messages.length} message(s), newest first. Emails and SMS codes are kept in memory only.</p>
${items || '<p>No messages yet.</p>'}
</body></html>`;
}

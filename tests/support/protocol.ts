/**
 * Every server message a test client receives is checked against the protocol's schema: a
 * frame the server builds by hand (server/game/frames.ts) or a field added without the
 * contract fails the test that received it, with the message and the field at fault.
 */
import { serverMessageSchema } from '../../machines/protocol/schemas';
import type { ServerMessage } from '../../machines/protocol/messages';

export class ProtocolViolation extends Error {}

export function checkServerMessage(text: string): ServerMessage {
  const raw: unknown = JSON.parse(text);
  const r = serverMessageSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ProtocolViolation(`server message breaks the protocol at ${issue?.path.join('.') || '(root)'}: ${issue?.message}; message: ${text.slice(0, 300)}`);
  }
  // The schema's own output drops nothing (server messages are strict objects); return the
  // received object so tests see exactly what was sent.
  return raw as ServerMessage;
}

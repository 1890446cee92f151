/**
 * zod schemas for every client-to-server message (SPEC.md section 7). Server-side only:
 * the shared TypeScript types live in machines/protocol/messages.ts.
 */
import { z } from 'zod';
import type { ClientMessageType } from '../../machines/protocol/messages';

const square = z.string().regex(/^[a-h][1-8]$/, 'square must be a1..h8');
const gameId = z.string().min(1).max(64);

export const wireMoveSchema = z.object({
  from: square,
  to: square,
  piece: z.string().max(8).optional(),
  promotion: z.enum(['q', 'r', 'b', 'n']).optional(),
});

const gameRef = z.object({ gameId });

/** Display names: trimmed, control characters removed, at most 40 characters. */
const displayName = z
  .string()
  .max(200)
  .transform((s) => s.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 40));

export const payloadSchemas = {
  findGame: z.object({ username: displayName.optional().nullable() }).optional().nullable(),
  cancelMatchmaking: z.unknown().optional(),
  gameMove: z.object({ gameId, move: wireMoveSchema }),
  resign: gameRef,
  offerDraw: gameRef,
  acceptDraw: gameRef,
  declineDraw: gameRef,
  checkActiveGame: z.object({ playerId: z.string().max(128).optional().nullable() }).optional().nullable(),
  rejoinGame: gameRef,
  identifyUser: z.object({ userId: z.string().min(1).max(128), accessToken: z.string().min(1).max(4096) }),
  // The AI service validates its own options; we only check the envelope.
  startAIGame: z.object({ options: z.unknown() }).or(z.unknown()),
  playerMoveAI: z.object({ gameId, move: wireMoveSchema }),
} satisfies Record<ClientMessageType, z.ZodType>;

export type ParsedPayloads = { [K in ClientMessageType]: z.output<(typeof payloadSchemas)[K]> };

export type ParsedMessage = { [K in ClientMessageType]: { type: K; payload: ParsedPayloads[K] } }[ClientMessageType];

export type ParseResult =
  | { ok: true; msg: ParsedMessage }
  | { ok: false; reason: 'malformed_json' | 'not_an_object' | 'unknown_type' | 'invalid_payload'; detail: string; type?: string };

const envelope = z.object({ type: z.string().max(64), payload: z.unknown().optional() });

export function parseClientMessage(text: string): ParseResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed_json', detail: 'message is not valid JSON' };
  }
  const env = envelope.safeParse(raw);
  if (!env.success) return { ok: false, reason: 'not_an_object', detail: 'message must be an object with a string "type"' };
  const type = env.data.type;
  if (!Object.prototype.hasOwnProperty.call(payloadSchemas, type)) {
    return { ok: false, reason: 'unknown_type', detail: `unknown message type "${type.slice(0, 64)}"`, type };
  }
  const schema = payloadSchemas[type as ClientMessageType];
  const p = schema.safeParse(env.data.payload);
  if (!p.success) {
    const first = p.error.issues[0];
    const where = first?.path.length ? `payload.${first.path.join('.')}` : 'payload';
    return { ok: false, reason: 'invalid_payload', detail: `${type}: ${where} ${first?.message ?? 'is invalid'}`, type };
  }
  return { ok: true, msg: { type, payload: p.data } as ParsedMessage };
}

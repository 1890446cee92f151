/**
 * Reads one client message from its JSON text and checks it against the protocol's schemas
 * (./schemas.ts). A refusal says which of four reasons applies and, for a bad payload, the
 * first field at fault; docs/protocol.md lists them. The server's hot path reads the common
 * move frame from its bytes first (server/realtime/moveFrame.ts) and comes here for the rest.
 */
import { z } from 'zod';
import { clientPayloadSchemas, GAME_COMMAND_TYPES, STEP_COMMAND_OF } from './schemas';
import type { ClientMessageType, ErrorCode, GameCommandMsg, ParsedMessage, StepCommandMsg } from './messages';

export type ParseFailure = Extract<ErrorCode, 'malformed_json' | 'not_an_object' | 'unknown_type' | 'invalid_payload'>;

export type ParseResult =
  | { ok: true; msg: ParsedMessage }
  | {
      ok: false;
      reason: ParseFailure;
      /** the whole explanation, e.g. `gameMove: payload.move.to square must be a1..h8` */
      detail: string;
      type?: string;
      /** for a bad payload: the field at fault and what is wrong with it, without the type */
      issue?: string;
    };

const envelope = z.object({ type: z.string().max(64), payload: z.unknown().optional() });

function isClientMessageType(type: string): type is ClientMessageType {
  return Object.prototype.hasOwnProperty.call(clientPayloadSchemas, type);
}

export function parseClientMessage(text: string): ParseResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed_json', detail: 'message is not valid JSON' };
  }
  return parseClientValue(raw);
}

/** A client message already read from JSON (between server nodes, a game command travels so), checked the same way. */
export function parseClientValue(raw: unknown): ParseResult {
  const env = envelope.safeParse(raw);
  if (!env.success) return { ok: false, reason: 'not_an_object', detail: 'message must be an object with a string "type"' };
  const type = env.data.type;
  if (!isClientMessageType(type)) {
    return { ok: false, reason: 'unknown_type', detail: `unknown message type "${type.slice(0, 64)}"`, type };
  }
  const p = clientPayloadSchemas[type].safeParse(env.data.payload);
  if (!p.success) {
    const first = p.error.issues[0];
    const where = first?.path.length ? `payload.${first.path.join('.')}` : 'payload';
    const issue = `${where} ${first?.message ?? 'is invalid'}`;
    return { ok: false, reason: 'invalid_payload', detail: `${type}: ${issue}`, type, issue };
  }
  // The schema for `type` produced p.data; TypeScript cannot pair the two through the index.
  return { ok: true, msg: { type, payload: p.data } as ParsedMessage };
}

const GAME_COMMANDS: ReadonlySet<string> = new Set<string>(GAME_COMMAND_TYPES);

/** Whether a message is a game message (GAME_COMMAND_TYPES). */
export const isGameCommand = (msg: ParsedMessage): msg is GameCommandMsg => GAME_COMMANDS.has(msg.type);

/** Whether a game message goes to the game's step as it is (STEP_COMMAND_OF). */
export const isStepCommand = (msg: GameCommandMsg): msg is StepCommandMsg => msg.type in STEP_COMMAND_OF;

/**
 * The round commands: the client messages about a game (against a person or the AI), as the
 * protocol's schemas parsed them. A command for a game another node plays travels there in this
 * shape (server/cluster/messages.ts), checked once more against the same schemas on arrival.
 */
import { z } from 'zod';
import type { ParsedMessage } from '../../machines/protocol/messages';
import { clientPayloadSchemas } from '../../machines/protocol/schemas';

const ROUND_COMMAND_TYPES = [
  'gameMove', 'resign', 'offerDraw', 'acceptDraw', 'declineDraw', 'offerRematch', 'declineRematch', 'checkActiveGame', 'rejoinGame', 'playerMoveAI',
] as const;
type RoundCommandType = (typeof ROUND_COMMAND_TYPES)[number];

const commandSchema = <K extends RoundCommandType>(type: K) => z.object({ type: z.literal(type), payload: clientPayloadSchemas[type] });

/** A round command as another node sends it. */
export const roundCommandSchema = z.discriminatedUnion('type', [
  commandSchema('gameMove'),
  commandSchema('resign'),
  commandSchema('offerDraw'),
  commandSchema('acceptDraw'),
  commandSchema('declineDraw'),
  commandSchema('offerRematch'),
  commandSchema('declineRematch'),
  commandSchema('checkActiveGame'),
  commandSchema('rejoinGame'),
  commandSchema('playerMoveAI'),
]);

export type RoundCommand = z.output<typeof roundCommandSchema>;

const ROUND_COMMANDS: ReadonlySet<string> = new Set<string>(ROUND_COMMAND_TYPES);
export const isRoundCommand = (msg: ParsedMessage): msg is Extract<ParsedMessage, { type: RoundCommandType }> => ROUND_COMMANDS.has(msg.type);

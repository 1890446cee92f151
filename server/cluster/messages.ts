/**
 * What one node tells another over Redis pub/sub (each node listens on its own channel). A
 * player's socket lives on one node and their game is played on its owner node: commands go from
 * the socket's node to the owner as parsed game messages (checked on arrival by the protocol's
 * parser, as at a socket), and are played there as a local player's; what the game says to
 * the player comes back as the frame's text, for their socket.
 * Spectators are relayed per node, not per socket: a node with sockets watching a game played
 * elsewhere tells the owner once (`watch`), and gets each spectator frame once (`wframe`).
 */
import { z } from 'zod';
import { chatLineSchema, playerRatingSchema, timeControlSchema } from '../../machines/protocol/schemas';
import { isGameCommand, parseClientValue } from '../../machines/protocol/parse';

const kind = z.enum(['guest', 'account']);

/** A game message (GAME_COMMAND_TYPES), checked by the protocol's parser as a socket's message is. */
const gameCommandSchema = z.unknown().transform((raw, ctx) => {
  const parsed = parseClientValue(raw);
  if (parsed.ok && isGameCommand(parsed.msg)) return parsed.msg;
  ctx.addIssue({ code: 'custom', message: parsed.ok ? `${parsed.msg.type} is not a game message` : parsed.detail });
  return z.NEVER;
});

/** A matched player as the node that starts their game needs them. */
export const seatInfoSchema = z.object({
  id: z.string(),
  kind,
  name: z.string(),
  rating: playerRatingSchema.nullable().optional(),
  /** the node their socket is on */
  node: z.string(),
});
export type SeatInfo = z.infer<typeof seatInfoSchema>;

export const busMessageSchema = z.discriminatedUnion('k', [
  /** send this text to the player's socket */
  z.object({ k: z.literal('frame'), p: z.string(), t: z.string() }),
  /** the player has a seat in game `g`, played on node `o` */
  z.object({ k: z.literal('seat'), p: z.string(), g: z.string(), o: z.string() }),
  /** game `g` is over for the player; `o`: the node that keeps its end, when not the one that played it (it took the game over once it had ended) */
  z.object({ k: z.literal('unseat'), p: z.string(), g: z.string(), o: z.string().optional() }),
  /** the player's game `g`, played by the sender, is against the AI (to the node of their socket) */
  z.object({ k: z.literal('vsai'), p: z.string(), g: z.string() }),
  /** a round command of the player whose socket is on node `n` (to the node that plays the game) */
  z.object({ k: z.literal('cmd'), n: z.string(), p: z.string(), c: gameCommandSchema, lag: z.number().optional(), ping: z.number().optional() }),
  /** the player's socket is now on node `n` */
  z.object({ k: z.literal('here'), n: z.string(), p: z.string() }),
  /** the player's socket on node `n` closed */
  z.object({ k: z.literal('gone'), n: z.string(), p: z.string() }),
  /** the player connected again on node `n` (socket number `o` of the site's order): close an older socket here */
  z.object({ k: z.literal('replace'), n: z.string(), p: z.string(), o: z.number() }),
  /** matchmaking: the player on node `n` searches (to the node running the pool) */
  z.object({ k: z.literal('join'), n: z.string(), p: z.string(), kind, name: z.string(), tc: timeControlSchema.optional() }),
  /** matchmaking: the player on node `n` stops searching */
  z.object({ k: z.literal('leave'), n: z.string(), p: z.string() }),
  /** matchmaking paired these two, committed as game `g` (their seats are claimed): start it here */
  z.object({ k: z.literal('create'), g: z.string(), white: seatInfoSchema, black: seatInfoSchema, tc: timeControlSchema.optional() }),
  /** spectators: node `n` has sockets watching game `g` and waits for its watchStart (to the owner) */
  z.object({ k: z.literal('watch'), n: z.string(), g: z.string() }),
  /** spectators: node `n` has no socket watching game `g` any more (to the owner) */
  z.object({ k: z.literal('unwatch'), n: z.string(), g: z.string() }),
  /**
   * spectators: the watchStart (its text) of game `g`, for the sockets that wait for it; with `r`,
   * unasked, for every watcher of the game there (the owner lost Redis, and the frames it relayed)
   */
  z.object({ k: z.literal('wstart'), g: z.string(), t: z.string(), r: z.literal(true).optional() }),
  /** spectators: a frame (its text) of game `g`, for its spectators' topic */
  z.object({ k: z.literal('wframe'), g: z.string(), t: z.string() }),
  /** spectators: game `g` ended (its gameEnd went out as a wframe) */
  z.object({ k: z.literal('wend'), g: z.string() }),
  /** spectators: the archive stored game `g` */
  z.object({ k: z.literal('warchived'), g: z.string() }),
  /** spectators: game `g` is not live on the node asked (unknown or ended) */
  z.object({ k: z.literal('wunknown'), g: z.string() }),
  /** chat: a checked line `l` of author `p` for game `g` (to the node that plays it; server/chat) */
  z.object({ k: z.literal('chat'), g: z.string(), p: z.string(), l: chatLineSchema }),
]);
export type BusMessage = z.infer<typeof busMessageSchema>;
/** The spectators' messages (server/cluster/watching.ts). */
export type WatchMessage = Extract<BusMessage, { k: 'watch' | 'unwatch' | 'wstart' | 'wframe' | 'wend' | 'warchived' | 'wunknown' }>;

/** A message from the channel, or null when it is not one (logged by the caller). */
export function readBusMessage(text: string): BusMessage | null {
  try {
    const parsed = busMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

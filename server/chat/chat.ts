/**
 * Game chat (docs/product.md, "Chat"; docs/protocol.md, `chatSend`): the two players' room and
 * the spectators' room of a live game, as on lichess, where players do not see the spectators'
 * room while they play.
 *
 * A line is checked on the node of its author's socket: the room is theirs (a player of the game
 * in the player room; a socket watching it, not one of its players, in the spectator room), a
 * guest may chat unless the operator turned guest chat off (GUEST_CHAT), and the author's flood
 * limit (flood.ts) allows it. It then goes to the node that plays the game (here, or through
 * the cluster), which keeps it in the game's log (and so its journal and archive) and sends it
 * to the room: to the two players, or as a spectator frame to every node watching the game.
 * The text is the protocol's (trimmed, control characters removed, at most 140 characters); a
 * client shows it as text, never as markup.
 */
import type { ChatLine, ChatRoom, ParsedPayloads } from '../../machines/protocol/messages';
import type { ChatSettings } from '../config/server';
import type { GameManager } from '../game/games';
import type { PlayerSession, WS } from '../realtime/hub';
import type { Replies } from '../realtime/replies';
import type { Spectators } from '../realtime/spectators';
import { ChatFlood } from './flood';
import { playingName } from '../round/playingName';

export const CHAT_TEXT = {
  notYourGame: 'You can write in the player room of your own game only.',
  notWatching: 'Watch this game to write in its spectator room.',
  playersNotInSpectatorRoom: 'Players do not see the spectator room until their game is over.',
  guestsOff: 'Chat is for signed-in players on this server. Sign in to chat.',
  tooMany: (seconds: number) => `You are sending messages too fast. Wait ${seconds} s.`,
  repeated: 'You just sent that message.',
  notLive: 'This game is not being played now.',
} as const;

/** Several nodes: where the games this node's sockets chat in are played. */
export interface ChatElsewhere {
  /** the node that plays a game sockets here watch, when it is another one and known */
  watchedOn(gameId: string): string | null;
  /** a checked line of the author `playerId` for game `gameId`, to its owner `node` */
  tell(node: string, gameId: string, playerId: string, line: ChatLine): void;
}

export class GameChat {
  private readonly flood = new ChatFlood();
  /** several nodes: the games played on other nodes */
  elsewhere?: ChatElsewhere;

  constructor(
    private readonly games: () => GameManager | undefined,
    private readonly spectators: Spectators,
    private readonly settings: ChatSettings,
    private readonly replies: Replies,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** chatSend from a socket: refused with a reason, or on its way to the game's room. */
  send(ws: WS, s: PlayerSession, { gameId, room, text }: ParsedPayloads['chatSend']): void {
    const where = this.whereTo(ws, s, gameId, room);
    if (typeof where === 'object') return this.replies.reject(ws, 'chat_refused', where.refused, true, gameId);
    if (s.kind === 'guest' && !this.settings.guests) return this.replies.reject(ws, 'chat_refused', CHAT_TEXT.guestsOff, true, gameId);
    const now = this.now();
    const flooded = this.flood.take(s.id, text, now);
    if (flooded === 'repeated') return this.replies.reject(ws, 'chat_rate_limited', CHAT_TEXT.repeated, true, gameId);
    if (flooded) return this.replies.reject(ws, 'chat_rate_limited', CHAT_TEXT.tooMany(Math.ceil(this.flood.waitMs(s.id, now) / 1000)), true, gameId);
    const line = lineOf(s, room, text);
    if (where === 'here') {
      if (!this.games()?.chat(gameId, s.id, line)) this.replies.reject(ws, 'chat_refused', CHAT_TEXT.notLive, true, gameId);
      return;
    }
    this.elsewhere?.tell(where, gameId, s.id, line);
  }

  /** The node that plays the game ('here' for this one), or why the author may not write in that room. */
  private whereTo(ws: WS, s: PlayerSession, gameId: string, room: ChatRoom): string | { refused: string } {
    const playsHere = s.game?.id === gameId;
    const playsElsewhere = s.remoteGame?.id === gameId ? s.remoteGame.owner : null;
    if (room === 'player') {
      if (playsHere) return 'here';
      return playsElsewhere ?? { refused: CHAT_TEXT.notYourGame };
    }
    if (playsHere || playsElsewhere) return { refused: CHAT_TEXT.playersNotInSpectatorRoom };
    if (!this.spectators.watchesLive(ws, gameId)) return { refused: CHAT_TEXT.notWatching };
    if (this.games()?.games.has(gameId)) return 'here';
    return this.elsewhere?.watchedOn(gameId) ?? { refused: CHAT_TEXT.notLive };
  }
}

/** The line as its room sees it; a player's name and colour are the game's own (the owner fills them in). */
function lineOf(s: PlayerSession, room: ChatRoom, text: string): ChatLine {
  return { room, name: playingName(s), ...(s.kind === 'guest' ? { guest: true } : {}), text };
}

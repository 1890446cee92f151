/**
 * Spectators of live multiplayer games (docs/protocol.md, "Spectators"), as on lichess: anyone
 * with a game's link may watch it, read-only.
 *
 * A watching socket is subscribed to the game's uWS topic, and the game's frames for its
 * players (gameMove, timerUpdate, gameEnd) are published to that topic as well: one publish per
 * frame, however many watch, and a game nobody watches costs nothing more. Nothing a player
 * alone is told (draw offers, rematches, disconnections, rejected moves, rating changes) is
 * ever published. A spectator takes no seat and is not a player anywhere.
 *
 * Once a watched game ends, its spectators no longer count toward the limits; when the server
 * has an archive they stay on the topic until the game's record is stored, and are told
 * (`gameArchived`), so the page can show the archived replay without asking too early.
 */
import { TEXT, type CurrentState, type ServerMessage, type WatchStartMsg } from '../../machines/protocol/messages';
import type { Seat } from '../../machines/game';
import type { TemplatedApp } from '../uws';
import type { GameManager, LiveGame } from '../game/games';
import type { WS } from './hub';

export interface WatchLimits {
  /** live games one socket may watch at once (0: watching is off) */
  gamesPerSocket: number;
  /** spectators of one game */
  watchersPerGame: number;
  /** spectators of all games on the server */
  watchersTotal: number;
}

export type WatchRefusal = { code: 'unknown_game' | 'watch_limit' | 'watchers_full' | 'not_watching'; message: string };

export const WATCH_TEXT = {
  notLive: 'This game is not being played now.',
  socketLimit: (n: number) => `You can watch at most ${n} games at once; stop watching one first.`,
  gameFull: 'This game has as many spectators as the server allows.',
  serverFull: 'The server has as many spectators as it allows right now.',
  notWatching: 'You are not watching this game.',
} as const;

/** How the game manager tells the spectators of a game what happens in it. */
export interface GameWatchers {
  /** a frame the game's players got (after its journal commit) */
  frame(gameId: string, bytes: Uint8Array): void;
  /** the game ended; its gameEnd frame has gone out */
  ended(gameId: string): void;
}

/** Ended games whose spectators wait for the archive: at most this many, this long. */
const AWAITING_ARCHIVE_MAX = 1_000;
const AWAITING_ARCHIVE_MS = 60_000;

const topicOf = (gameId: string) => `watch:${gameId}`;

/** What a spectator sees of the position: the players' pending draw offer left out. */
function watchState(s: CurrentState): WatchStartMsg['currentState'] {
  return { fen: s.fen, turn: s.turn, moves: s.moves, timers: s.timers, clocks: s.clocks, seq: s.seq };
}

/** A player's name as spectators see it; a seat named by its id (no name given) shows as anonymous. */
function shownName(seat: Seat): string {
  return seat.name && seat.name !== seat.id ? seat.name : TEXT.anonymousName;
}

/** The watchStart of a live game as it stands: the players' names, never their ids or more. */
export function watchStart(game: LiveGame, games: GameManager): WatchStartMsg {
  return {
    type: 'watchStart',
    gameId: game.id,
    white: { name: shownName(game.white) },
    black: { name: shownName(game.black) },
    timerDuration: Math.round((game.log.input.clockMs ?? games.clockMs) / 1000),
    currentState: watchState(games.currentState(game)),
    ...(game.ratings ? { ratings: game.ratings } : {}),
  };
}

export class Spectators implements GameWatchers {
  /** socket -> the games it watches: 'live', or 'ended' while it waits for the archive */
  private readonly watches = new Map<WS, Map<string, 'live' | 'ended'>>();
  /** game -> the sockets watching it */
  private readonly byGame = new Map<string, Set<WS>>();
  /** ended games whose spectators wait for the archive, oldest first, with when they ended */
  private readonly awaitingArchive = new Map<string, number>();
  /** games the archive stored before their end reached the spectators */
  private readonly archivedEarly = new Set<string>();
  /** live watches on the server */
  private live = 0;

  constructor(
    private readonly app: TemplatedApp,
    private readonly limits: WatchLimits,
    private readonly games: () => GameManager | undefined,
    /** whether finished games go to an archive (then `archived` is called for each) */
    private readonly withArchive: boolean,
  ) {}

  /** Spectators of live games now (for tests and metrics). */
  get count(): number {
    return this.live;
  }

  /** watchGame: refused (nothing changed), or watchStart follows once what it shows is durable. */
  watch(ws: WS, gameId: string): WatchRefusal | null {
    const games = this.games();
    const game = games?.games.get(gameId);
    if (!games || !game || game.ended) return { code: 'unknown_game', message: WATCH_TEXT.notLive };
    const mine = this.watches.get(ws);
    if (mine?.get(gameId) !== 'live') {
      const refused = this.admissionRefusal(mine, gameId);
      if (refused) return refused;
      this.add(ws, gameId);
    }
    const start = watchStart(game, games);
    // the position may hold a move still being written: the frames before it were published
    // before this runs, the ones after it after
    games.afterCommit(() => {
      if (this.watches.get(ws)?.get(gameId) !== 'live') return; // closed, unwatched or ended meanwhile
      ws.subscribe(topicOf(gameId));
      send(ws, start);
    });
    return null;
  }

  /** unwatchGame: watchStopped, or refused when the socket does not watch the game. */
  unwatch(ws: WS, gameId: string): WatchRefusal | null {
    if (!this.watches.get(ws)?.has(gameId)) return { code: 'not_watching', message: WATCH_TEXT.notWatching };
    this.remove(ws, gameId);
    ws.unsubscribe(topicOf(gameId));
    send(ws, { type: 'watchStopped', gameId });
    return null;
  }

  /** The socket closed (uWS has taken it off its topics). */
  socketClosed(ws: WS): void {
    const mine = this.watches.get(ws);
    if (!mine) return;
    for (const gameId of [...mine.keys()]) this.remove(ws, gameId);
  }

  frame(gameId: string, bytes: Uint8Array): void {
    if (this.byGame.has(gameId)) this.app.publish(topicOf(gameId), bytes, false);
  }

  ended(gameId: string): void {
    const sockets = this.byGame.get(gameId);
    if (!sockets) return;
    for (const ws of sockets) this.watches.get(ws)?.set(gameId, 'ended');
    this.live -= sockets.size;
    if (!this.withArchive) return this.release(gameId);
    this.awaitAmongOthers(gameId, performance.now());
    // stored before its end reached the spectators (the archive was quicker than the commit)
    if (this.archivedEarly.delete(gameId)) this.archived(gameId);
  }

  /** The archive stored the game: its spectators are told, and their watch is over. */
  archived(gameId: string): void {
    if (!this.awaitingArchive.has(gameId)) {
      if (this.isLiveWatched(gameId)) this.archivedEarly.add(gameId);
      return;
    }
    this.app.publish(topicOf(gameId), JSON.stringify({ type: 'gameArchived', gameId } satisfies ServerMessage), false);
    this.release(gameId);
  }

  private isLiveWatched(gameId: string): boolean {
    const first = this.byGame.get(gameId)?.values().next().value;
    return first !== undefined && this.watches.get(first)?.get(gameId) === 'live';
  }

  private admissionRefusal(mine: Map<string, 'live' | 'ended'> | undefined, gameId: string): WatchRefusal | null {
    let liveHere = 0;
    for (const state of mine?.values() ?? []) if (state === 'live') liveHere++;
    if (liveHere >= this.limits.gamesPerSocket) return { code: 'watch_limit', message: WATCH_TEXT.socketLimit(this.limits.gamesPerSocket) };
    if ((this.byGame.get(gameId)?.size ?? 0) >= this.limits.watchersPerGame) return { code: 'watchers_full', message: WATCH_TEXT.gameFull };
    if (this.live >= this.limits.watchersTotal) return { code: 'watchers_full', message: WATCH_TEXT.serverFull };
    return null;
  }

  private add(ws: WS, gameId: string): void {
    let mine = this.watches.get(ws);
    if (!mine) this.watches.set(ws, (mine = new Map()));
    mine.set(gameId, 'live');
    let sockets = this.byGame.get(gameId);
    if (!sockets) this.byGame.set(gameId, (sockets = new Set()));
    sockets.add(ws);
    this.live++;
  }

  /** Forgets one socket's watch of one game (its topic is the caller's to leave). */
  private remove(ws: WS, gameId: string): void {
    const mine = this.watches.get(ws);
    if (mine?.get(gameId) === 'live') this.live--;
    mine?.delete(gameId);
    if (mine?.size === 0) this.watches.delete(ws);
    const sockets = this.byGame.get(gameId);
    sockets?.delete(ws);
    if (sockets?.size === 0) {
      this.byGame.delete(gameId);
      this.awaitingArchive.delete(gameId);
    }
  }

  /** Keeps an ended game's spectators for the archive; the oldest beyond the bounds are let go. */
  private awaitAmongOthers(gameId: string, now: number): void {
    this.awaitingArchive.set(gameId, now);
    for (const [id, endedAt] of this.awaitingArchive) {
      if (this.awaitingArchive.size <= AWAITING_ARCHIVE_MAX && now - endedAt <= AWAITING_ARCHIVE_MS) break;
      this.release(id);
    }
  }

  /** Every spectator of an ended game leaves its topic and is forgotten. */
  private release(gameId: string): void {
    const topic = topicOf(gameId);
    for (const ws of [...(this.byGame.get(gameId) ?? [])]) {
      this.remove(ws, gameId);
      ws.unsubscribe(topic);
    }
    this.awaitingArchive.delete(gameId);
  }
}

function send(ws: WS, msg: ServerMessage): void {
  if (!ws.getUserData().closing) ws.send(JSON.stringify(msg), false);
}

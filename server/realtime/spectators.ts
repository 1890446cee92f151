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
 *
 * Several nodes: a game played on another node is watched the same way, through the node's
 * `elsewhere` (server/cluster/watching.ts): its owner is looked up, the local limits apply, and
 * the owner sends the watchStart and then each frame once to this node, which publishes it to
 * the game's topic here.
 */
import { TEXT, type CurrentState, type ServerMessage, type WatchStartMsg } from '../../machines/protocol/messages';
import { chatOf, playsAsGuest, timeControlOf, type Seat } from '../../machines/game';
import type { TemplatedApp } from '../uws';
import type { GameManager, LiveGame } from '../game/games';
import type { WS } from './hub';
import type { WatchLimits } from '../config/server';
import type { GameWatchers } from '../round/types';

export type { GameWatchers };

export type WatchRefusal = { code: 'unknown_game' | 'watch_limit' | 'watchers_full' | 'not_watching'; message: string };

export const WATCH_TEXT = {
  notLive: 'This game is not being played now.',
  socketLimit: (n: number) => `You can watch at most ${n} games at once; stop watching one first.`,
  gameFull: 'This game has as many spectators as the server allows.',
  serverFull: 'The server has as many spectators as it allows right now.',
  notWatching: 'You are not watching this game.',
} as const;

/** How the game manager (and the archive) tell the spectators of a game what happens in it. */
/** Several nodes: the games this node's sockets watch that another node plays. */
export interface GamesElsewhere {
  /** the node that plays a live game when it is another one, or null */
  ownerOf(gameId: string): Promise<string | null>;
  /** sockets here wait for the watchStart of the game `owner` plays */
  wantStart(gameId: string, owner: string): void;
  /** no socket here watches the game any more */
  stopped(gameId: string): void;
}

/** Ended games whose spectators wait for the archive: at most this many, this long. */
const AWAITING_ARCHIVE_MAX = 1_000;
export const AWAITING_ARCHIVE_MS = 60_000;

const topicOf = (gameId: string) => `watch:${gameId}`;

const NOT_LIVE: WatchRefusal = { code: 'unknown_game', message: WATCH_TEXT.notLive };

/** What a spectator sees of the position: the players' pending draw offer left out. */
function watchState(s: CurrentState): WatchStartMsg['currentState'] {
  return { fen: s.fen, turn: s.turn, moves: s.moves, timers: s.timers, clocks: s.clocks, seq: s.seq };
}

/** The spectator room's lines a spectator is shown as it starts to watch: the latest ones. */
const CHAT_HISTORY_LINES = 50;

/** A player's name as spectators see it; a seat named by its id (no name given) shows as anonymous. */
export function shownName(seat: Seat): string {
  return seat.name && seat.name !== seat.id ? seat.name : TEXT.anonymousName;
}

/** The watchStart of a live game as it stands: the players' names, never their ids or more, and the spectator room's latest lines. */
export function watchStart(game: LiveGame, games: GameManager): WatchStartMsg {
  const chat = chatOf(game.log, 'spectator', CHAT_HISTORY_LINES);
  return {
    type: 'watchStart',
    gameId: game.id,
    white: { name: shownName(game.white), guest: playsAsGuest(game.log.input, game.white.id) },
    black: { name: shownName(game.black), guest: playsAsGuest(game.log.input, game.black.id) },
    timerDuration: Math.round(timeControlOf(game.log.input).initial),
    currentState: watchState(games.currentState(game)),
    ...(game.ratings ? { ratings: game.ratings } : {}),
    ...(chat.length > 0 ? { chat } : {}),
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
  /** games played elsewhere -> the sockets waiting for their watchStart from the owner */
  private readonly awaitingStart = new Map<string, Set<WS>>();
  /** live watches on the server */
  private live = 0;
  /** several nodes: the games played on other nodes */
  elsewhere?: GamesElsewhere;

  constructor(
    private readonly app: TemplatedApp,
    private readonly limits: WatchLimits,
    private readonly games: () => GameManager | undefined,
    /** whether finished games go to an archive (then `archived` is called for each) */
    readonly withArchive: boolean,
  ) {}

  /** Spectators of live games now (for tests and metrics). */
  get count(): number {
    return this.live;
  }

  /**
   * watchGame: refused (nothing changed), or watchStart follows once what it shows is durable.
   * A game another node plays is answered once its owner is known (a promise).
   */
  watch(ws: WS, gameId: string): WatchRefusal | null | Promise<WatchRefusal | null> {
    const games = this.games();
    const game = games?.games.get(gameId);
    if (games && game) return game.ended ? NOT_LIVE : this.watchHere(ws, gameId, game, games);
    if (!this.elsewhere || this.watches.get(ws)?.get(gameId) === 'ended') return NOT_LIVE;
    return this.watchElsewhere(ws, gameId, this.elsewhere);
  }

  private watchHere(ws: WS, gameId: string, game: LiveGame, games: GameManager): WatchRefusal | null {
    const refused = this.admit(ws, gameId);
    if (refused) return refused;
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

  /** Admits the socket's watch of the game unless it is live already or a limit refuses it. */
  private admit(ws: WS, gameId: string): WatchRefusal | null {
    const mine = this.watches.get(ws);
    if (mine?.get(gameId) === 'live') return null;
    const refused = this.admissionRefusal(mine, gameId);
    if (!refused) this.add(ws, gameId);
    return refused;
  }

  /** A game not played here: its owner is looked up, then the watch waits for the owner's watchStart. */
  private async watchElsewhere(ws: WS, gameId: string, elsewhere: GamesElsewhere): Promise<WatchRefusal | null> {
    const owner = await elsewhere.ownerOf(gameId).catch(() => null);
    if (ws.getUserData().closing) return null;
    const games = this.games();
    const game = games?.games.get(gameId);
    if (games && game && !game.ended) return this.watchHere(ws, gameId, game, games); // taken over here meanwhile
    if (!owner || this.watches.get(ws)?.get(gameId) === 'ended') return NOT_LIVE;
    const refused = this.admit(ws, gameId);
    if (refused) return refused;
    let waiting = this.awaitingStart.get(gameId);
    if (!waiting) this.awaitingStart.set(gameId, (waiting = new Set()));
    waiting.add(ws);
    elsewhere.wantStart(gameId, owner);
    return null;
  }

  /** The owner's watchStart of a game played elsewhere: the sockets waiting for it follow the game. */
  startedElsewhere(gameId: string, text: string): void {
    const waiting = this.awaitingStart.get(gameId);
    if (!waiting) return;
    this.awaitingStart.delete(gameId);
    for (const ws of waiting) {
      if (this.watches.get(ws)?.get(gameId) !== 'live') continue;
      ws.subscribe(topicOf(gameId));
      sendText(ws, text);
    }
  }

  /** Every live watcher of a game played elsewhere waits for a fresh watchStart (its owner changed, or frames were lost). */
  awaitStartAgain(gameId: string): void {
    const live = [...(this.byGame.get(gameId) ?? [])].filter((ws) => this.watches.get(ws)?.get(gameId) === 'live');
    if (live.length > 0) this.awaitingStart.set(gameId, new Set(live));
  }

  /** A game watched from here as played elsewhere is now played here: its watchers get a fresh watchStart. */
  cameHere(gameId: string): void {
    this.awaitingStart.delete(gameId);
    const games = this.games();
    const game = games?.games.get(gameId);
    if (!games || !game || game.ended) return this.notLive(gameId);
    for (const ws of [...(this.byGame.get(gameId) ?? [])]) {
      if (this.watches.get(ws)?.get(gameId) === 'live') this.watchHere(ws, gameId, game, games);
    }
  }

  /** A game watched from here is not live anywhere (its owner says so, or it has none): its live watchers are told. */
  notLive(gameId: string): void {
    this.awaitingStart.delete(gameId);
    this.tellNotLive(gameId, [...(this.byGame.get(gameId) ?? [])]);
  }

  /** A game that ended before the owner's watchStart reached the sockets waiting for it: they are told it is not live. */
  private refuseAwaiting(gameId: string): void {
    const waiting = this.awaitingStart.get(gameId);
    if (!waiting) return;
    this.awaitingStart.delete(gameId);
    this.tellNotLive(gameId, [...waiting]);
  }

  /** Ends the live watches of `sockets` with an unknown_game error, as a refused watchGame would. */
  private tellNotLive(gameId: string, sockets: WS[]): void {
    for (const ws of sockets) {
      if (this.watches.get(ws)?.get(gameId) !== 'live') continue;
      this.remove(ws, gameId);
      ws.unsubscribe(topicOf(gameId));
      send(ws, { type: 'error', code: NOT_LIVE.code, message: NOT_LIVE.message, gameId });
    }
  }

  /** Whether the socket follows the game as a live spectator (its chat's spectator room is open to it). */
  watchesLive(ws: WS, gameId: string): boolean {
    return this.watches.get(ws)?.get(gameId) === 'live';
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

  /** Live spectators here of each game watched from here: the `max` most watched. */
  liveCounts(max: number): Map<string, number> {
    const counts: [string, number][] = [];
    for (const [gameId, sockets] of this.byGame) {
      let n = 0;
      for (const ws of sockets) if (this.watches.get(ws)?.get(gameId) === 'live') n++;
      if (n > 0) counts.push([gameId, n]);
    }
    if (counts.length > max) counts.sort((a, b) => b[1] - a[1]).length = max;
    return new Map(counts);
  }

  /** A message to every spectator here of a game (its spectator count). */
  tell(gameId: string, msg: ServerMessage): void {
    if (this.byGame.has(gameId)) this.app.publish(topicOf(gameId), JSON.stringify(msg), false);
  }

  /** A frame of a watched game: this node's (its bytes) or, played elsewhere, relayed by its owner (its text). */
  frame(gameId: string, bytes: Uint8Array | string): void {
    if (this.byGame.has(gameId)) this.app.publish(topicOf(gameId), bytes, false);
  }

  ended(gameId: string): void {
    this.refuseAwaiting(gameId);
    const sockets = this.byGame.get(gameId);
    // told again (an owner on another node telling the end again after its outage): nothing changes
    if (!sockets || this.awaitingArchive.has(gameId)) return;
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
    const waiting = this.awaitingStart.get(gameId);
    waiting?.delete(ws);
    if (waiting?.size === 0) this.awaitingStart.delete(gameId);
    if (sockets?.size === 0) {
      this.byGame.delete(gameId);
      this.awaitingArchive.delete(gameId);
      this.elsewhere?.stopped(gameId);
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
  sendText(ws, JSON.stringify(msg));
}

function sendText(ws: WS, text: string): void {
  if (!ws.getUserData().closing) ws.send(text, false);
}

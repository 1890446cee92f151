/**
 * The shapes the socket layer (server/realtime), the rounds (server/round) and the game manager
 * (server/game) share: a socket's data, a player's session, a live game and what the games tell
 * their spectators. They refer to one another, so they live together, below all three, and the
 * modules that fill them in import them from here (tests/repo/dependencies.test.ts keeps the
 * import graph free of cycles).
 */
import type { WebSocket } from '../uws';
import type { GameRatings, PlayerRating } from '../../machines/protocol/messages';
import type { GameActor, GameLog, Seat } from '../../machines/game';
import type { RateState } from '../realtime/rateLimit';
import type { WheelEntry } from '../game/wakeWheel';
import type { VerifiedIdentity as AccessClaims } from '../accounts/verifiedIdentity';

export interface SocketData {
  connId: number;
  playerId: string;
  /** the client's address as the per-address limits count it (realtime/admission.ts) */
  address: string;
  /** set during upgrade: the identity the client asked to resume, already verified */
  resumed: boolean;
  /** set when a bad secret was presented: an error is sent right after connectionAck */
  identityRejected: boolean;
  rate: RateState;
  /** true once the socket is closing (rate limit, replacement, shutdown) */
  closing: boolean;
  /** true when a newer socket took this player's seat */
  replaced: boolean;
  /** smoothed one-way network lag from ping/pong RTT (ms); undefined until measured */
  lagMs?: number;
  /** performance.now() of the last lag ping (LagPings.NEVER before the first) */
  lastPingAt: number;
  /** performance.now() of each lag ping not yet answered, oldest first: pongs are timed from these */
  pingsInFlight: number[];
  /** the last identifyUser's token (its key) and answer: the same token again is not checked again */
  identifiedWith: { key: string; claims: AccessClaims | null } | null;
  /** true while this socket's identifyUser is being checked */
  identifying: boolean;
  /** the session this socket was last attached to (it speaks for it while `session.ws` is this socket) */
  session: PlayerSession | null;
  /** ended games whose end (gameEnd, then what followed it) this socket was sent unasked: a rejoin of one is not answered twice */
  endsSent: Set<string> | null;
  /**
   * several nodes: the messages that came while the site was still being told of this socket
   * (its older socket elsewhere closed, its game on another node found), handled in order once it
   * knows; null once it does (and on one node)
   */
  held: HeldMessage[] | null;
  /**
   * several nodes: the socket's place in the site's order of sockets (a later socket has a larger
   * one); undefined while unknown (Redis did not answer), when any newer socket elsewhere closes it
   */
  siteOrder?: number;
  /** several nodes: a request to close this socket for a newer one that came while it was being located (decided once its place is known) */
  replacedWhileLocating: { by: string; order: number } | null;
}

export type WS = WebSocket<SocketData>;

/** A message kept until the socket's place on the site is known (a copy: uWS reuses its buffer). */
export interface HeldMessage {
  message: ArrayBuffer;
  isBinary: boolean;
  arrivedAt: number;
}

/**
 * A player known to this node. Their game state (the seat in a game here or on another node, and
 * the node of their socket when it is elsewhere) is read-only here: server/round writes it.
 */
export interface PlayerSession {
  id: string;
  kind: 'guest' | 'account';
  ws: WS | null;
  name?: string;
  /** an account's username, as its access token's check found it: the name it plays under */
  username?: string;
  /** live multiplayer game, if any */
  readonly game: LiveGame | null;
  queued: boolean;
  /** a signed-in player's rating in the speed of the pool they last searched in, as looked up then */
  rating?: PlayerRating | null;
  /** several nodes: the other node this player's socket is on (this node owns their game or runs the pool) */
  readonly node?: string | null;
  /** several nodes: the live game this player (socket here) plays on another node, and that node */
  readonly remoteGame?: RemoteGame | null;
  /** several nodes: the last game this player played on another node (rematch offers go there) */
  readonly lastRemoteGame?: RemoteGame | null;
}

export interface RemoteGame {
  id: string;
  owner: string;
  /** a game against the AI */
  vsAi?: boolean;
}

export interface LiveGame {
  id: string;
  /** the timing wheel's slot this game waits in, and its neighbours there (owned by WakeWheel) */
  wakeSlot: number;
  wakePrev: WheelEntry | null;
  wakeNext: WheelEntry | null;
  /** turnStartedAt of the turn whose clock is being reported, and how many reports it had */
  reportTurn: number;
  reportsThisTurn: number;
  white: Seat;
  black: Seat;
  /**
   * The two players' sessions. A session outlives its sockets while its player has a seat
   * (Hub.forgetIfIdle), and a reconnecting player gets the same session back, so every frame to
   * a player of the game goes to its session, without a lookup by id.
   */
  sessions: { white: PlayerSession; black: PlayerSession };
  actor: GameActor;
  /** the game's log so far (what the journal holds of it; compaction rewrites it from here) */
  log: GameLog;
  startedAt: number;
  ended: boolean;
  /** the players' pool ratings when it started (gameStart shows them), or undefined when both are guests */
  ratings?: GameRatings;
}

export interface GameWatchers {
  /** a frame the game's players got (after its journal commit) */
  frame(gameId: string, bytes: Uint8Array): void;
  /** the game ended; its gameEnd frame has gone out */
  ended(gameId: string): void;
  /** the archive stored the ended game */
  archived(gameId: string): void;
}

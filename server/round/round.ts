/**
 * The rounds: every live game a player of this node plays, behind one interface. Commands come
 * in already parsed and typed (from a socket here, or from another node's socket); frames go out
 * through the sink (the hub, which reaches a socket here or on another node); presence changes
 * come through `presence`. A game played on another node is reached through `elsewhere` (the
 * cluster), which carries the same commands to its owner.
 */
import type { Logger } from 'pino';
import type { MoveLag } from '../../machines/game';
import type { ErrorCode, GameCommandMsg, MatchmakingStatusMsg } from '../../machines/protocol/messages';
import { isStepCommand } from '../../machines/protocol/parse';
import { STEP_COMMAND_OF } from '../../machines/protocol/schemas';
import type { ServerMetrics } from '../http/metrics';
import { CANNOT_PLAY_NOW, type GameManager } from '../game/games';
import type { MatchmakingPort } from '../cluster/matchmaking';
import type { Hub, PlayerSession, RemoteGame } from '../realtime/hub';
import { Rematches } from './rematch';
import type { Presence } from './presence';
import { endedElsewhere, socketOn } from './seats';

/** Games owned by other nodes of the site (server/cluster), reached with the same commands. */
export interface RoundsElsewhere {
  /** a command of a player (socket here) about a game played on node `owner` */
  forward(session: PlayerSession, owner: string, cmd: GameCommandMsg, lag: MoveLag): void;
  /** a game neither live nor recently ended here: true when the node where it ended answers the player */
  rejoinEndedElsewhere(session: PlayerSession, gameId: string): Promise<boolean>;
  /**
   * whether the site records that game `gameId`, played on another node, has ended: its owner
   * records the end before it tells the players' nodes, so the record may come first (just after
   * a Redis outage, the owner's word is still on its way; while the owner itself cannot reach
   * Redis, only the game's log holds the end)
   */
  endRecorded(gameId: string): Promise<boolean>;
}

/** The game a player is busy with (played here or elsewhere), as a refused search names it. */
export type HeldBy = NonNullable<MatchmakingStatusMsg['activeGame']>;

const TEXTS = {
  noGame: 'Game not found or not yours.',
  notYourGame: 'This is not your game.',
  notYourIdentity: 'That player id is not yours; nothing was changed.',
};

/** What a game message becomes for the game's step. */
type StepCommandType = 'MOVE' | (typeof STEP_COMMAND_OF)[keyof typeof STEP_COMMAND_OF];

export class Rounds {
  private readonly rematches: Rematches;

  constructor(
    /** the frames' sink: a player's socket here, or (several nodes) the node of their socket */
    private readonly sink: Hub,
    private readonly games: GameManager,
    matchmaking: MatchmakingPort,
    readonly presence: Presence,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
    /** several nodes: the games played on other nodes; null on a single node */
    private readonly elsewhere: RoundsElsewhere | null = null,
  ) {
    this.rematches = new Rematches(sink, games, matchmaking);
  }

  /** The game that holds the player (they may not start another), or null. */
  heldBy(s: PlayerSession): HeldBy | null {
    if (s.game) return { gameId: s.game.id, vsAi: Boolean(s.game.white.engine || s.game.black.engine) };
    if (s.remoteGame) return { gameId: s.remoteGame.id, vsAi: s.remoteGame.vsAi === true };
    return null;
  }

  /**
   * The game that holds the player, as the site records it: a game played elsewhere whose end the
   * site records holds them no more (its owner's word of the end had not reached this node yet),
   * and this node forgets it now. When the record cannot be read, this node's own belief (logged).
   */
  async heldOnSite(s: PlayerSession): Promise<HeldBy | null> {
    const elsewhere = !s.game && s.remoteGame;
    if (elsewhere && this.elsewhere && (await this.endRecorded(this.elsewhere, s, elsewhere.id))) endedElsewhere(s, elsewhere.id);
    return this.heldBy(s);
  }

  /** Whether the site records the end of the game elsewhere; false (logged) when the record cannot be read. */
  private async endRecorded(elsewhere: RoundsElsewhere, s: PlayerSession, gameId: string): Promise<boolean> {
    try {
      return await elsewhere.endRecorded(gameId);
    } catch (err) {
      this.log.warn({ playerId: s.id, gameId, err: (err as Error).message }, "could not read the site's record of the player's game");
      return false;
    }
  }

  /** A command of a player whose socket is here: played here, or sent to the node that plays its game. */
  command(s: PlayerSession, cmd: GameCommandMsg, arrivedAt: number, lag: MoveLag): void {
    const owner = this.elsewhere && this.playedElsewhere(s, cmd);
    if (owner) return this.elsewhere!.forward(s, owner.owner, cmd, lag);
    this.play(s, cmd, arrivedAt, lag);
  }

  /**
   * Several nodes: a command of a player whose socket is on node `from`, about a game this node
   * plays (or played); handled as a local player's.
   */
  remoteCommand(from: string, playerId: string, kind: 'guest' | 'account', cmd: GameCommandMsg, lag: MoveLag, seat: (id: string) => PlayerSession | undefined): void {
    const known = seat(playerId);
    if (known?.ws) return; // their socket is here now: the other node's is stale
    // a player this node knows nothing of is answered without being seated here
    const s: PlayerSession = known ?? { id: playerId, kind, ws: null, game: null, queued: false, node: from, remoteGame: null, lastRemoteGame: null };
    socketOn(s, from);
    this.play(s, cmd, performance.now(), lag);
  }

  /** Several nodes: the game a command is about when another node plays it, or null. */
  private playedElsewhere(s: PlayerSession, cmd: GameCommandMsg): RemoteGame | null {
    if (s.game) return null;
    const gameId = cmd.payload && 'gameId' in cmd.payload ? cmd.payload.gameId : undefined;
    for (const game of [s.remoteGame, s.lastRemoteGame]) {
      if (game && (gameId === undefined || gameId === game.id)) return game;
    }
    return null;
  }

  /**
   * Plays a game message here: a step command (STEP_COMMAND_OF) goes to the game's step as it is;
   * the others each to what plays them.
   */
  private play(s: PlayerSession, cmd: GameCommandMsg, arrivedAt: number, lag: MoveLag): void {
    if (isStepCommand(cmd)) return this.gameCommand(s, cmd.payload.gameId, STEP_COMMAND_OF[cmd.type], arrivedAt);
    switch (cmd.type) {
      case 'gameMove':
      // the older name of a move in a game against the AI: the same move
      case 'playerMoveAI':
        return this.gameCommand(s, cmd.payload.gameId, 'MOVE', arrivedAt, cmd.payload.move, lag);
      case 'offerRematch': {
        const refused = this.rematches.offer(s, cmd.payload.gameId);
        return refused ? this.refuse(s, refused.code, refused.message) : undefined;
      }
      case 'declineRematch':
        return this.rematches.decline(s, cmd.payload.gameId);
      case 'checkActiveGame':
        return this.checkActiveGame(s, cmd.payload);
      case 'rejoinGame':
        return this.rejoin(s, cmd.payload.gameId);
    }
  }

  /** Counts and logs a refused command and answers the player, wherever their socket is. */
  refuse(s: PlayerSession, reason: ErrorCode, message: string): void {
    this.metrics.messagesRejected.inc({ reason });
    this.log.info({ playerId: s.id, reason, detail: message }, 'message rejected');
    this.sink.sendTo(s, { type: 'error', code: reason, message });
  }

  private gameCommand(s: PlayerSession, gameId: string, type: StepCommandType, arrivedAt: number, move?: Extract<GameCommandMsg, { type: 'gameMove' }>['payload']['move'], lag?: MoveLag): void {
    // the player's own game is found without a lookup; any other id is looked up to say why not
    const game = s.game;
    if (!game || game.id !== gameId) {
      const someoneElses = this.games.games.has(gameId);
      const reason = someoneElses ? 'not_your_game' : 'unknown_game';
      const message = someoneElses ? TEXTS.notYourGame : TEXTS.noGame;
      this.metrics.messagesRejected.inc({ reason });
      this.log.info({ playerId: s.id, gameId, reason, type }, 'game command rejected');
      if (type === 'MOVE') this.sink.sendTo(s, { type: 'moveRejected', gameId, message });
      else this.sink.sendTo(s, { type: 'error', code: reason, message });
      return;
    }
    let done: boolean;
    if (type !== 'MOVE') {
      done = this.games.command(game, { type, playerId: s.id });
    } else {
      // One object shape for every move command, whatever the client sent.
      const m = move && { from: move.from, to: move.to, promotion: move.promotion };
      done = !m || this.games.command(game, { type: 'MOVE', playerId: s.id, move: m, lagMs: lag?.lagMs, unansweredPingMs: lag?.unansweredPingMs }, arrivedAt);
    }
    // the games' store cannot write (a full disk), or (several nodes) this node's lease is uncertain; nothing was played
    if (!done && !game.ended) this.refuseUnavailable(s, gameId, type === 'MOVE');
  }

  /** A game command refused because this node may not play now (GameManager.mayPlay): a move is answered moveRejected, anything else an error. */
  private refuseUnavailable(s: PlayerSession, gameId: string, isMove: boolean): void {
    this.metrics.messagesRejected.inc({ reason: 'unavailable' });
    if (isMove) this.sink.sendTo(s, { type: 'moveRejected', gameId, message: CANNOT_PLAY_NOW.message });
    else this.sink.sendTo(s, { type: 'error', ...CANNOT_PLAY_NOW });
  }

  private checkActiveGame(s: PlayerSession, payload: Extract<GameCommandMsg, { type: 'checkActiveGame' }>['payload']): void {
    if (payload?.playerId && payload.playerId !== s.id) return this.refuse(s, 'foreign_identity', TEXTS.notYourIdentity);
    const game = s.game;
    if (!game) {
      this.sink.sendTo(s, { type: 'activeGameStatus', gameId: null });
      return;
    }
    const color = this.games.colorOf(game, s.id)!;
    const opponent = color === 'white' ? game.black : game.white;
    this.sink.sendTo(s, { type: 'activeGameStatus', gameId: game.id, color, opponentId: opponent.id, ...(opponent.engine ? { engineLevel: opponent.engine.level } : {}) });
  }

  private rejoin(s: PlayerSession, gameId: string): void {
    const game = this.games.games.get(gameId);
    if (!game) {
      // ended while this player was away: tell them how (and their rating change, if scored),
      // unless this socket was told already (the rating change it was kept for brought the end along)
      if (s.ws?.getUserData().endsSent?.has(gameId)) return;
      const frames = this.games.endedFrames(gameId, s.id);
      for (const frame of frames) this.sink.sendBytesTo(s, frame);
      if (frames.length === 0) this.unknownGameOrEndedElsewhere(s, gameId);
      return;
    }
    if (s.game !== game) return this.refuse(s, 'not_your_game', TEXTS.noGame);
    this.games.sendPosition(game, s);
  }

  /**
   * "Game not found", unless (several nodes, the player's socket here) the game ended a short
   * while ago on another node, which then tells the player how it ended.
   */
  private unknownGameOrEndedElsewhere(s: PlayerSession, gameId: string): void {
    const notFound = () => this.refuse(s, 'unknown_game', TEXTS.noGame);
    if (!this.elsewhere || !s.ws) return notFound();
    this.elsewhere.rejoinEndedElsewhere(s, gameId).then(
      (asked) => {
        if (!asked) notFound();
      },
      (err: Error) => {
        this.log.warn({ err: err.message, gameId }, 'could not look up where the game was played');
        notFound();
      },
    );
  }
}

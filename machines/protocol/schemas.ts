/**
 * The realtime socket protocol as zod schemas: every message a client may send and every
 * message the server sends. This file is the one definition of the protocol; the TypeScript
 * types in ./messages.ts are inferred from it, and the server parses what clients send with it
 * (./parse.ts). docs/protocol.md describes the same messages in prose.
 *
 * - A server message is a flat JSON object: `{ type, ...fields }`.
 * - A client message carries its fields in `payload`: `{ type, payload }`
 *   (`cancelMatchmaking` needs none).
 *
 * Fields commented "additive" go beyond the original client's protocol: they carry what the
 * design needs (proven identity, server clocks, event numbering); an older client ignores them.
 *
 * Only zod, no Node or browser API: the browser client, the server, the Node load driver and
 * the k6 scripts all import from here (the k6 scripts and the client import types only).
 */
import { z } from 'zod';
import { AI_DIFFICULTY, CHAT, SPEEDS, TIME_CONTROL_LIMITS } from './constants';

// ---------------------------------------------------------------------------
// Shared parts
// ---------------------------------------------------------------------------

export const colorSchema = z.enum(['white', 'black']);
export const winnerSchema = z.enum(['white', 'black', 'draw']);
export const promotionPieceSchema = z.enum(['q', 'r', 'b', 'n']);

/** A square name, a1..h8. */
export const squareSchema = z.string().regex(/^[a-h][1-8]$/, 'square must be a1..h8');

/** Game ids are opaque strings the server made; a client's copy is checked for length only. */
export const gameIdSchema = z.string().min(1).max(64);

/** A move as it travels on the wire. */
export const wireMoveSchema = z.object({
  from: squareSchema,
  to: squareSchema,
  /** sent by clients; informational only, the server reads the board */
  piece: z.string().max(8).optional(),
  promotion: promotionPieceSchema.optional(),
});

/** Both clocks in whole seconds (the original `timerUpdate` unit). */
export const timersSchema = z.object({ white: z.number(), black: z.number() });

/** Both clocks in milliseconds (additive, precise). */
export const clocksMsSchema = z.object({ white: z.number(), black: z.number() });

/** Why a game ended. The first nine are the original client's labels; the rest are additive. */
export const gameEndReasonSchema = z.enum([
  'checkmate',
  'timeout',
  'resignation',
  'agreement',
  'stalemate',
  'threefold repetition',
  'insufficient material',
  'disconnection',
  'technical_draw',
  'fifty-move rule',
  'fivefold repetition',
  'aborted',
  'max plies',
]);

/** A speed (its own rating): ultraBullet, bullet, blitz, rapid or classical (machines/game/timeControl.ts). */
export const speedSchema = z.enum(SPEEDS);

/** A rating before and after a rated game. */
export const ratingChangeSchema = z.object({ before: z.number(), after: z.number() });

/**
 * A signed-in player's pool rating as the game screen shows it (additive); provisional while
 * the rating's deviation is high (shown with a question mark).
 */
export const playerRatingSchema = z.object({ rating: z.number(), provisional: z.boolean() });

/** Both players' ratings at the start of a game: null for a guest (unrated). */
export const gameRatingsSchema = z.object({ white: playerRatingSchema.nullable(), black: playerRatingSchema.nullable() });

/**
 * A time control (additive): the initial time and the Fischer increment in seconds, as lichess's
 * game export gives them (`{ initial: 300, increment: 3 }` is "5+3"). This is a game's own, as
 * the server runs it (an operator's CLOCK_SECONDS may be any length); anything that takes one and
 * is given none plays the server's default, 10+0 (machines/game/timeControl.ts).
 */
export const timeControlSchema = z.strictObject({ initial: z.number().positive(), increment: z.number().min(0) });

/** A time control a player may ask for: lichess's custom-game range, in whole seconds. */
const { initial: INITIAL, increment: INCREMENT } = TIME_CONTROL_LIMITS;
export const timeControlRequestSchema = z.strictObject({
  initial: z
    .number({ error: 'must be a number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(INITIAL.min, { error: `must be from ${INITIAL.min} to ${INITIAL.max} seconds` })
    .max(INITIAL.max, { error: `must be from ${INITIAL.min} to ${INITIAL.max} seconds` }),
  increment: z
    .number({ error: 'must be a number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(INCREMENT.min, { error: `must be from ${INCREMENT.min} to ${INCREMENT.max} seconds` })
    .max(INCREMENT.max, { error: `must be from ${INCREMENT.min} to ${INCREMENT.max} seconds` }),
});

/**
 * The options of a custom game, posted to the lobby (a "hook") or sent as a challenge: a time
 * control in the request range, rated or casual (rated only between signed-in players), and the
 * creator's colour (random: drawn when the game starts).
 */
export const customGameSchema = z.strictObject({
  timeControl: timeControlRequestSchema,
  rated: z.boolean({ error: 'must be true or false' }),
  color: z.enum(['white', 'black', 'random'], { error: 'must be "white", "black" or "random"' }),
});

/** The creator of a hook or a challenge as others see them. */
export const creatorSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** a guest (any name is open to one, so it is shown marked) */
  guest: z.boolean(),
  rating: playerRatingSchema.nullable().optional(),
});

/** A custom game waiting in the lobby for an opponent (lichess's "hook"). */
export const hookSchema = z.strictObject({
  id: z.string(),
  by: creatorSchema,
  ...customGameSchema.shape,
  /** wall-clock ms */
  createdAt: z.number(),
});

/** Where a challenge stands: open until accepted, declined, cancelled by its creator, or expired. */
export const challengeStatusSchema = z.enum(['created', 'accepted', 'declined', 'canceled', 'expired']);

/** Why a challenge was declined (lichess's reasons for a real-time game). */
export const declineReasonSchema = z.enum(['generic', 'later', 'tooFast', 'tooSlow', 'timeControl', 'rated', 'casual']);

/** A challenge: to anyone with its link, or to one signed-in player by username (`to`). */
export const challengeSchema = z.strictObject({
  id: z.string(),
  by: creatorSchema,
  /** the username challenged; none: whoever opens the link first may accept */
  to: z.string().optional(),
  ...customGameSchema.shape,
  status: challengeStatusSchema,
  declineReason: declineReasonSchema.optional(),
  /** the game it started, once accepted */
  gameId: z.string().optional(),
  /** wall-clock ms */
  createdAt: z.number(),
  /** wall-clock ms: when it stopped being open */
  endedAt: z.number().optional(),
});

/** The position a rejoining player gets in `gameStart` / `aiGameStart`. */
export const currentStateSchema = z.object({
  fen: z.string(),
  turn: colorSchema,
  moves: z.array(wireMoveSchema),
  timers: timersSchema,
  /** additive: precise clocks in ms */
  clocks: clocksMsSchema.optional(),
  /** additive: sequence number of the last game event */
  seq: z.number().int().optional(),
  /** additive: the colour that has a pending draw offer, if any */
  drawOfferFrom: colorSchema.nullable().optional(),
  /** additive: the colour that has a pending takeback proposal, if any */
  takebackFrom: colorSchema.nullable().optional(),
  /**
   * additive: each player away from the game, with the disconnect grace they have left (ms), as
   * the game step counts it (it runs down only while that player is to move); left out when both
   * are present
   */
  awayGraceMs: z.object({ white: z.number().optional(), black: z.number().optional() }).optional(),
});

/** The options of an AI game, as `startAIGame` carries them. */
export const aiGameOptionsSchema = z.object({
  difficulty: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(AI_DIFFICULTY.min, { error: `must be between ${AI_DIFFICULTY.min} and ${AI_DIFFICULTY.max}` })
    .max(AI_DIFFICULTY.max, { error: `must be between ${AI_DIFFICULTY.min} and ${AI_DIFFICULTY.max}` }),
  playerColor: z.enum(['white', 'black', 'random'], { error: 'must be "white", "black" or "random"' }),
  /** additive: the game's clock (both sides); left out, no clock (each move within the idle limit) */
  timeControl: timeControlRequestSchema.optional(),
});

/**
 * Every `code` an `error` message may carry. The first four are the parser's refusals
 * (./parse.ts); docs/protocol.md says when each of the others is sent.
 */
export const errorCodeSchema = z.enum([
  'malformed_json',
  'not_an_object',
  'unknown_type',
  'invalid_payload',
  'binary',
  'identity_rejected',
  'replaced',
  'server_error',
  'unavailable',
  'unknown_game',
  'not_your_game',
  'foreign_identity',
  'active_game',
  'game_start_failed',
  'accounts_unavailable',
  'identify_failed',
  'identify_busy',
  'identify_pending',
  'identify_rate_limited',
  'ai_unavailable',
  'invalid_options',
  'ai_game_in_progress',
  'ai_capacity',
  'ai_address_limit',
  'no_ai_game',
  'engine_failure',
  'rematch_unavailable',
  'not_signed_in',
  'archive_unavailable',
  'watch_limit',
  'watchers_full',
  'not_watching',
  'chat_refused',
  'chat_rate_limited',
  'hook_unavailable',
  'challenge_unavailable',
  'challenge_limit',
  'rated_needs_account',
]);

/** A game's chat rooms: the two players', and the spectators' (players do not see it during the game). */
export const chatRoomSchema = z.enum(['player', 'spectator']);

/**
 * One line of a game's chat as the room sees it: the author's name shown (a guest's marked), the
 * colour they play in the player room, and the text; never an id.
 */
export const chatLineSchema = z.strictObject({
  room: chatRoomSchema,
  name: z.string(),
  guest: z.boolean().optional(),
  color: colorSchema.optional(),
  text: z.string(),
});

/**
 * A player of a game as a spectator sees it: the name shown and whether it is a guest's (any name
 * is open to a guest, so a guest's is shown marked), nothing else (no player id: the archive keeps
 * them private too).
 */
export const watchedPlayerSchema = z.strictObject({ name: z.string(), guest: z.boolean().optional() });

/** The position a spectator gets in `watchStart`: `currentStateSchema` without the players' draw offers and takeback proposals. */
export const watchStateSchema = currentStateSchema.omit({ drawOfferFrom: true, takebackFrom: true });

/** A player of a live game as the site's list of live games shows them: name, guest, rating (none for a guest). */
export const listedPlayerSchema = z.strictObject({ name: z.string(), guest: z.boolean(), rating: playerRatingSchema.nullable() });

/**
 * A live game in the site's list of live games (/games, /tv): who plays, the time control, the
 * position and how many moves were played, and how many spectators watch it (all nodes).
 */
export const liveGameSummarySchema = z.strictObject({
  gameId: z.string(),
  white: listedPlayerSchema,
  black: listedPlayerSchema,
  timeControl: timeControlSchema,
  /** plies played */
  moves: z.number().int().min(0),
  fen: z.string(),
  /** the last move, UCI; absent before the first */
  lastMove: z.string().optional(),
  spectators: z.number().int().min(0),
});

// ---------------------------------------------------------------------------
// Server -> client
// ---------------------------------------------------------------------------

// Each message is a strict object: a field the server sends must be written here first.

/** Any server message; a client (or a test) may check what it received with it. */
export const serverMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('connectionAck'),
    playerId: z.string(),
    count: z.number().int(),
    /** additive: proves this guest identity on reconnect (the `chess_guest` subprotocol or cookie, guestClaim.ts) */
    secret: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('playerCount'), count: z.number().int() }),
  z.strictObject({
    type: z.literal('matchmakingStatus'),
    status: z.enum(['idle', 'queued', 'canceled']),
    message: z.string(),
    /** additive: a search refused because a game holds the player: which game, against whom (the client links to it and offers to resign it) */
    activeGame: z.strictObject({ gameId: z.string(), vsAi: z.boolean() }).optional(),
  }),
  z.strictObject({
    type: z.literal('gameStart'),
    gameId: z.string(),
    color: colorSchema,
    opponentId: z.string(),
    opponentName: z.string().optional(),
    /** additive: the opponent plays as a guest (their name is theirs to choose, so it is shown marked) */
    opponentGuest: z.boolean().optional(),
    /** seconds */
    timerDuration: z.number(),
    currentState: currentStateSchema.optional(),
    /** additive: both players' pool ratings, when at least one is signed in */
    ratings: gameRatingsSchema.optional(),
    /** additive: the game's time control (timerDuration is its initial time); left out when the game has no clock (timerDuration 0) */
    timeControl: timeControlSchema.optional(),
    /** additive: the player room's lines so far (on a rejoin), oldest first */
    chat: z.array(chatLineSchema).optional(),
    /** additive: the game allows takebacks (a casual game; docs/protocol.md, Takebacks) */
    takebacks: z.boolean().optional(),
    /** additive: the opponent is the engine, at this level (a game against the AI) */
    engineLevel: z.number().int().optional(),
  }),
  z.strictObject({
    type: z.literal('aiGameStart'),
    gameId: z.string(),
    color: colorSchema,
    timerDuration: z.number(),
    currentState: currentStateSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('gameMove'),
    gameId: z.string(),
    move: wireMoveSchema,
    nextTurn: colorSchema,
    /** additive */
    san: z.string().optional(),
    fen: z.string().optional(),
    clocks: clocksMsSchema.optional(),
    seq: z.number().int().optional(),
  }),
  z.strictObject({
    type: z.literal('timerUpdate'),
    gameId: z.string(),
    timers: timersSchema,
    /** additive */
    clocks: clocksMsSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('gameEnd'),
    gameId: z.string(),
    winner: winnerSchema,
    reason: gameEndReasonSchema,
    /** additive */
    pgn: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('drawOffer'), gameId: z.string() }),
  z.strictObject({ type: z.literal('drawDeclined'), gameId: z.string() }),
  /** additive: the opponent proposes to take back a move (answer acceptTakeback or declineTakeback) */
  z.strictObject({ type: z.literal('takebackOffer'), gameId: z.string() }),
  /** additive: the pending takeback proposal is over: declined, withdrawn, or a move was played instead */
  z.strictObject({ type: z.literal('takebackDeclined'), gameId: z.string() }),
  /**
   * additive: a takeback was accepted, to both players and the spectators: `plies` moves are
   * gone; the position, side to move, clocks (ms, the running one as of now) and ply count after it
   */
  z.strictObject({
    type: z.literal('takeback'),
    gameId: z.string(),
    plies: z.number().int(),
    fen: z.string(),
    turn: colorSchema,
    clocks: clocksMsSchema,
    seq: z.number().int(),
  }),
  /**
   * additive: a player gave the opponent time (giveTime), to both players and the spectators:
   * `color`'s clock got `ms` more; both clocks after it (ms, the running one as of now)
   */
  z.strictObject({ type: z.literal('timeGiven'), gameId: z.string(), color: colorSchema, ms: z.number().int(), clocks: clocksMsSchema }),
  /** additive: a line of the game's chat, to the room it was said in */
  z.strictObject({ type: z.literal('chatMessage'), gameId: z.string(), ...chatLineSchema.shape }),
  /** additive: the opponent of the ended game `gameId` offers a rematch (colours swapped, same clock) */
  z.strictObject({ type: z.literal('rematchOffer'), gameId: z.string() }),
  /** additive: the opponent declined the rematch of `gameId` */
  z.strictObject({ type: z.literal('rematchDeclined'), gameId: z.string() }),
  z.strictObject({
    type: z.literal('opponentDisconnected'),
    message: z.string(),
    gameId: z.string().optional(),
    /**
     * additive: the grace the absent player has for this absence, in ms. It runs down only while
     * that player is to move with a running clock (from ply 2), as the server counts it; at zero
     * the present player wins by `disconnection` (docs/protocol.md, Ordering and rejoin).
     */
    graceMs: z.number().optional(),
  }),
  z.strictObject({ type: z.literal('opponentReconnected'), message: z.string(), gameId: z.string().optional() }),
  z.strictObject({
    type: z.literal('activeGameStatus'),
    gameId: z.string().nullable(),
    color: colorSchema.optional(),
    opponentId: z.string().optional(),
    /** additive: the opponent is the engine, at this level (a game against the AI) */
    engineLevel: z.number().int().optional(),
  }),
  z.strictObject({
    type: z.literal('moveRejected'),
    message: z.string(),
    /** additive: the game and its current position, so the client can resync */
    gameId: z.string().optional(),
    fen: z.string().optional(),
  }),
  z.strictObject({
    type: z.literal('gameCreated'),
    gameId: z.string(),
    playerColor: colorSchema,
    opponentName: z.string(),
  }),
  z.strictObject({
    type: z.literal('moveMade'),
    gameId: z.string(),
    move: wireMoveSchema,
    gameOver: z.boolean(),
    /** additive */
    san: z.string().optional(),
    fen: z.string().optional(),
  }),
  z.strictObject({
    type: z.literal('gameOver'),
    gameId: z.string(),
    reason: gameEndReasonSchema,
    winner: winnerSchema,
  }),
  z.strictObject({
    type: z.literal('error'),
    message: z.string(),
    /** additive: machine-readable reason */
    code: errorCodeSchema.optional(),
    /** additive: the game a refused `watchGame` / `unwatchGame` named */
    gameId: z.string().optional(),
  }),
  /**
   * additive: answer to watchGame: a live game as a spectator sees it now. The game's `gameMove`,
   * `timerUpdate` and `gameEnd` frames follow, the same the players get.
   */
  z.strictObject({
    type: z.literal('watchStart'),
    gameId: z.string(),
    white: watchedPlayerSchema,
    black: watchedPlayerSchema,
    /** seconds per side at the start */
    timerDuration: z.number(),
    currentState: watchStateSchema,
    /** both players' pool ratings, when at least one is signed in */
    ratings: gameRatingsSchema.optional(),
    /** the spectator room's lines so far, oldest first */
    chat: z.array(chatLineSchema).optional(),
  }),
  /** additive: answer to unwatchGame: no more frames of `gameId` come to this socket */
  z.strictObject({ type: z.literal('watchStopped'), gameId: z.string() }),
  /**
   * additive: answer to watchLiveGames: the site's live games now (the best-rated first, at most
   * LIVE_GAMES_LISTED); `liveGamesChanged` follows whenever the list changes
   */
  z.strictObject({ type: z.literal('liveGames'), games: z.array(liveGameSummarySchema) }),
  /** additive: the list changed: games new to it or changed (moves, spectators), and games gone from it (ended, or crowded out) */
  z.strictObject({ type: z.literal('liveGamesChanged'), updated: z.array(liveGameSummarySchema), removed: z.array(z.string()) }),
  /** additive: to a live game's players and spectators: how many spectators watch it now, on every node */
  z.strictObject({ type: z.literal('spectators'), gameId: z.string(), count: z.number().int().min(0) }),
  /** additive: a watched game that ended is now in the archive (its replay can be loaded) */
  z.strictObject({ type: z.literal('gameArchived'), gameId: z.string() }),
  /** additive: graceful shutdown notice */
  z.strictObject({ type: z.literal('serverShutdown'), message: z.string() }),
  /** additive: answer to identifyUser */
  z.strictObject({ type: z.literal('identified'), playerId: z.string(), username: z.string().optional() }),
  /** additive: a rated game `gameId` has been scored: each side's rating in the game's speed (`speed`) before and after */
  z.strictObject({ type: z.literal('ratingChange'), gameId: z.string(), speed: speedSchema, white: ratingChangeSchema, black: ratingChangeSchema }),
  /** additive: answer to watchLobby: the lobby's custom games, all of them, oldest first; `lobbyHooksChanged` follows whenever the list changes */
  z.strictObject({ type: z.literal('lobbyHooks'), hooks: z.array(hookSchema) }),
  /** additive: the lobby's list changed: custom games posted (or changed), and the ids of games gone (joined, cancelled, replaced, their creator away) */
  z.strictObject({ type: z.literal('lobbyHooksChanged'), updated: z.array(hookSchema), removed: z.array(z.string()) }),
  /** additive: a challenge as it stands, to its creator, the player challenged and a socket that opened it */
  z.strictObject({ type: z.literal('challenge'), challenge: challengeSchema }),
  /** additive: answer to claimGuestGames: how many archived guest games the account now holds */
  z.strictObject({ type: z.literal('guestGamesClaimed'), guestId: z.string(), count: z.number().int() }),
]);

// ---------------------------------------------------------------------------
// Client -> server: the schema of each message's payload
// ---------------------------------------------------------------------------

const gameRef = z.object({ gameId: gameIdSchema });

/** Display names: trimmed, control characters removed, at most 40 characters. */
const displayName = z
  .string()
  .max(200)
  .transform((s) => s.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 40));

export const clientPayloadSchemas = {
  /** additive: `timeControl`, the pool to search in (none: the server's default pool, 10+0) */
  findGame: z.object({ username: displayName.optional().nullable(), timeControl: timeControlRequestSchema.optional() }).optional().nullable(),
  /** no payload; one sent anyway (an empty object, null) is ignored */
  cancelMatchmaking: z.object({}).optional().nullable(),
  gameMove: z.object({ gameId: gameIdSchema, move: wireMoveSchema }),
  resign: gameRef,
  offerDraw: gameRef,
  acceptDraw: gameRef,
  declineDraw: gameRef,
  /** additive: offer a rematch of the ended game, or accept the opponent's offer (both offered: it starts) */
  offerRematch: gameRef,
  /** additive: decline the opponent's rematch offer */
  declineRematch: gameRef,
  /** playerId, when sent, must be the socket's own id */
  checkActiveGame: z.object({ playerId: z.string().max(128).optional().nullable() }).optional().nullable(),
  rejoinGame: gameRef,
  /** accessToken is additive and required: the server never trusts a bare id */
  identifyUser: z.object({ userId: z.string().min(1).max(128), accessToken: z.string().min(1).max(4096) }),
  startAIGame: z.object({ options: aiGameOptionsSchema }),
  playerMoveAI: z.object({ gameId: gameIdSchema, move: wireMoveSchema }),
  /** additive: on a signed-in socket, take the games this device played as a guest (proved by its secret) */
  claimGuestGames: z.object({ guestId: z.string().min(1).max(64), secret: z.string().min(1).max(128) }),
  /** additive: follow a live game as a spectator (read-only) */
  watchGame: gameRef,
  /** additive: stop following a game */
  unwatchGame: gameRef,
  /** additive: take back the last move (casual games), or accept the opponent's pending proposal */
  proposeTakeback: gameRef,
  /** additive: accept the opponent's takeback proposal */
  acceptTakeback: gameRef,
  /** additive: decline the opponent's takeback proposal, or withdraw one's own */
  declineTakeback: gameRef,
  /** additive: add 15 s to the opponent's clock (a game with a clock, not against the AI) */
  giveTime: gameRef,
  /**
   * additive: a line to a game's chat room: `player` (the two players) or `spectator` (those
   * watching). Text only: control characters removed, trimmed, 1 to 140 characters.
   */
  chatSend: z.object({
    gameId: gameIdSchema,
    room: chatRoomSchema,
    text: z
      .string()
      .max(4 * CHAT.maxLength)
      .transform((s) => s.replace(/[\u0000-\u001f\u007f]/g, ' ').trim())
      .pipe(
        z
          .string()
          .min(1, { error: 'must not be empty' })
          .max(CHAT.maxLength, { error: `must be at most ${CHAT.maxLength} characters` }),
      ),
  }),
  /** additive: follow the lobby's custom games (answered with lobbyHooks, then lobbyHooksChanged on every change) */
  watchLobby: z.object({}).optional().nullable(),
  /** additive: stop following the lobby */
  unwatchLobby: z.object({}).optional().nullable(),
  /** additive: post a custom game to the lobby (it replaces the player's previous one); `username` as in findGame */
  postHook: z.object({ options: customGameSchema, username: displayName.optional().nullable() }),
  /** additive: take one's custom game off the lobby */
  cancelHook: z.object({}).optional().nullable(),
  /** additive: play the custom game `hookId` against its creator */
  joinHook: z.object({ hookId: z.string().min(1).max(64), username: displayName.optional().nullable() }),
  /** additive: create a challenge (answered with `challenge`); `to`: a signed-in player's username */
  createChallenge: z.object({ options: customGameSchema, to: z.string().trim().min(1).max(40).optional(), username: displayName.optional().nullable() }),
  /** additive: show a challenge (answered with `challenge`, then its changes) */
  watchChallenge: z.object({ challengeId: z.string().min(1).max(64) }),
  acceptChallenge: z.object({ challengeId: z.string().min(1).max(64), username: displayName.optional().nullable() }),
  declineChallenge: z.object({ challengeId: z.string().min(1).max(64), reason: declineReasonSchema.optional() }),
  cancelChallenge: z.object({ challengeId: z.string().min(1).max(64) }),
  /** additive: follow the site's list of live games (no payload) */
  watchLiveGames: z.object({}).optional().nullable(),
  /** additive: stop following the list of live games (no payload) */
  unwatchLiveGames: z.object({}).optional().nullable(),
} as const;

/**
 * The game messages: the commands of a live game, against a player or the AI (the server's rounds
 * play them, on the node that plays the game). A new one is listed here, with its payload above.
 */
export const GAME_COMMAND_TYPES = [
  'gameMove', 'resign', 'offerDraw', 'acceptDraw', 'declineDraw', 'offerRematch', 'declineRematch', 'checkActiveGame', 'rejoinGame', 'playerMoveAI',
  'proposeTakeback', 'acceptTakeback', 'declineTakeback', 'giveTime',
] as const satisfies readonly (keyof typeof clientPayloadSchemas)[];

/** The game messages a game's step (machines/game) takes as they are, by the step command each becomes. */
export const STEP_COMMAND_OF = {
  resign: 'RESIGN',
  offerDraw: 'OFFER_DRAW',
  acceptDraw: 'ACCEPT_DRAW',
  declineDraw: 'DECLINE_DRAW',
  proposeTakeback: 'PROPOSE_TAKEBACK',
  acceptTakeback: 'ACCEPT_TAKEBACK',
  declineTakeback: 'DECLINE_TAKEBACK',
  giveTime: 'GIVE_TIME',
} as const;

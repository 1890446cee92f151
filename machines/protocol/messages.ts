/**
 * The realtime socket protocol's TypeScript types, inferred from the zod schemas in
 * ./schemas.ts (the one definition; docs/protocol.md describes it), and the protocol's fixed
 * texts. The server, the browser client, the Node load driver and the k6 scripts import these
 * types; a changed schema changes them, and every sender or reader that no longer fits fails
 * `tsc`.
 */
import type { z } from 'zod';
import type {
  aiGameOptionsSchema,
  chatLineSchema,
  chatRoomSchema,
  challengeSchema,
  customGameSchema,
  declineReasonSchema,
  hookSchema,
  clientPayloadSchemas,
  GAME_COMMAND_TYPES,
  STEP_COMMAND_OF,
  clocksMsSchema,
  colorSchema,
  currentStateSchema,
  errorCodeSchema,
  gameEndReasonSchema,
  gameRatingsSchema,
  playerRatingSchema,
  ratingChangeSchema,
  liveGameSummarySchema,
  promotionPieceSchema,
  serverMessageSchema,
  timeControlSchema,
  timersSchema,
  winnerSchema,
  wireMoveSchema,
} from './schemas';

export type Color = z.infer<typeof colorSchema>;
export type Winner = z.infer<typeof winnerSchema>;
export type PromotionPiece = z.infer<typeof promotionPieceSchema>;
export type WireMove = z.infer<typeof wireMoveSchema>;
export type Timers = z.infer<typeof timersSchema>;
export type ClocksMs = z.infer<typeof clocksMsSchema>;
export type TimeControl = z.infer<typeof timeControlSchema>;
export type GameEndReason = z.infer<typeof gameEndReasonSchema>;
export type CurrentState = z.infer<typeof currentStateSchema>;
export type AiGameOptions = z.infer<typeof aiGameOptionsSchema>;
export type ErrorCode = z.infer<typeof errorCodeSchema>;
export type PlayerRating = z.infer<typeof playerRatingSchema>;
export type GameRatings = z.infer<typeof gameRatingsSchema>;
export type RatingChange = z.infer<typeof ratingChangeSchema>;
export type ChatRoom = z.infer<typeof chatRoomSchema>;
export type ChatLine = z.infer<typeof chatLineSchema>;
export type CustomGame = z.infer<typeof customGameSchema>;
export type Hook = z.infer<typeof hookSchema>;
export type Challenge = z.infer<typeof challengeSchema>;
export type DeclineReason = z.infer<typeof declineReasonSchema>;
export type LiveGameSummary = z.infer<typeof liveGameSummarySchema>;

// ---------------------------------------------------------------------------
// Server -> client
// ---------------------------------------------------------------------------

export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
/** The server message whose `type` is K. */
export type ServerMessageOf<K extends ServerMessageType> = Extract<ServerMessage, { type: K }>;

export type ConnectionAckMsg = ServerMessageOf<'connectionAck'>;
export type PlayerCountMsg = ServerMessageOf<'playerCount'>;
export type MatchmakingStatusMsg = ServerMessageOf<'matchmakingStatus'>;
export type GameStartMsg = ServerMessageOf<'gameStart'>;
export type AiGameStartMsg = ServerMessageOf<'aiGameStart'>;
export type GameMoveMsg = ServerMessageOf<'gameMove'>;
export type TimerUpdateMsg = ServerMessageOf<'timerUpdate'>;
export type GameEndMsg = ServerMessageOf<'gameEnd'>;
export type DrawOfferMsg = ServerMessageOf<'drawOffer'>;
export type DrawDeclinedMsg = ServerMessageOf<'drawDeclined'>;
export type RematchOfferMsg = ServerMessageOf<'rematchOffer'>;
export type RematchDeclinedMsg = ServerMessageOf<'rematchDeclined'>;
export type OpponentDisconnectedMsg = ServerMessageOf<'opponentDisconnected'>;
export type OpponentReconnectedMsg = ServerMessageOf<'opponentReconnected'>;
export type ActiveGameStatusMsg = ServerMessageOf<'activeGameStatus'>;
export type MoveRejectedMsg = ServerMessageOf<'moveRejected'>;
export type GameCreatedMsg = ServerMessageOf<'gameCreated'>;
export type MoveMadeMsg = ServerMessageOf<'moveMade'>;
export type GameOverMsg = ServerMessageOf<'gameOver'>;
export type ErrorMsg = ServerMessageOf<'error'>;
export type ServerShutdownMsg = ServerMessageOf<'serverShutdown'>;
export type IdentifiedMsg = ServerMessageOf<'identified'>;
export type RatingChangeMsg = ServerMessageOf<'ratingChange'>;
export type WatchStartMsg = ServerMessageOf<'watchStart'>;
export type WatchStoppedMsg = ServerMessageOf<'watchStopped'>;
export type GameArchivedMsg = ServerMessageOf<'gameArchived'>;
export type ChatMessageMsg = ServerMessageOf<'chatMessage'>;
export type TakebackMsg = ServerMessageOf<'takeback'>;

/** A server message about one game (one that names its `gameId`), without the id: what a game's step tells its players, the host naming the game. */
export type GameNotice = ServerMessage extends infer M ? (M extends unknown ? ('gameId' extends keyof M ? Omit<M, 'gameId'> : never) : never) : never;

// ---------------------------------------------------------------------------
// Client -> server
// ---------------------------------------------------------------------------

type PayloadSchemas = typeof clientPayloadSchemas;
export type ClientMessageType = keyof PayloadSchemas;

/** What a client writes in each message's `payload`. */
export type ClientPayloads = { [K in ClientMessageType]: z.input<PayloadSchemas[K]> };
/** A payload as the server has it after parsing (names trimmed, unknown keys dropped). */
export type ParsedPayloads = { [K in ClientMessageType]: z.output<PayloadSchemas[K]> };

/** A message as a client sends it; `payload` may be left out where the schema allows none. */
export type ClientMessage = {
  [K in ClientMessageType]: undefined extends ClientPayloads[K]
    ? { type: K; payload?: ClientPayloads[K] }
    : { type: K; payload: ClientPayloads[K] };
}[ClientMessageType];

/** A client message as the server has it after parsing. */
export type ParsedMessage = { [K in ClientMessageType]: { type: K; payload: ParsedPayloads[K] } }[ClientMessageType];

export { AI_DIFFICULTY, CHAT, PRESENCE_TEXT, SOCKET_PATH, TEXT } from './constants';

/** A game message as parsed (GAME_COMMAND_TYPES): what the server's rounds play. */
export type GameCommandMsg = Extract<ParsedMessage, { type: (typeof GAME_COMMAND_TYPES)[number] }>;
/** A game message the game's step takes as it is (STEP_COMMAND_OF). */
export type StepCommandMsg = Extract<ParsedMessage, { type: keyof typeof STEP_COMMAND_OF }>;

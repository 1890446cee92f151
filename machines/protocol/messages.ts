/**
 * The realtime socket protocol (SPEC.md sections 3 and 7), shared by the server,
 * the browser client, the Node load driver and the k6 scripts.
 *
 * - A server message is a flat JSON object: `{ type, ...fields }`.
 * - A client message carries its fields in `payload`: `{ type, payload }`
 *   (`cancelMatchmaking` has none).
 *
 * Fields marked "additive" are not in SPEC.md; they exist because the design
 * needs them (proven identity, server clocks, event numbering) and old clients
 * may ignore them.
 */

export type Color = 'white' | 'black';
export type Winner = Color | 'draw';
export type PromotionPiece = 'q' | 'r' | 'b' | 'n';

/** A move as it travels on the wire (SPEC "Wire move"). */
export interface WireMove {
  from: string;
  to: string;
  /** Sent by clients (SPEC); informational only, the server reads the board. */
  piece?: string;
  promotion?: PromotionPiece;
}

/** Both clocks. `white`/`black` in whole seconds as SPEC's timerUpdate says. */
export interface Timers {
  white: number;
  black: number;
}

/** Both clocks in milliseconds (additive, precise). */
export interface ClocksMs {
  white: number;
  black: number;
}

/** Why a game ended. The first nine are SPEC's labels; the rest are additive. */
export type GameEndReason =
  | 'checkmate'
  | 'timeout'
  | 'resignation'
  | 'agreement'
  | 'stalemate'
  | 'threefold repetition'
  | 'insufficient material'
  | 'disconnection'
  | 'technical_draw'
  | 'fifty-move rule'
  | 'fivefold repetition'
  | 'aborted'
  | 'max plies';

/** Position snapshot sent on rejoin (SPEC gameStart.currentState). */
export interface CurrentState {
  fen: string;
  turn: Color;
  moves: WireMove[];
  timers: Timers;
  /** additive: precise clocks in ms and whether a clock is running */
  clocks?: ClocksMs;
  /** additive: sequence number of the last game event */
  seq?: number;
  /** additive: the colour that has a pending draw offer, if any */
  drawOfferFrom?: Color | null;
}

// ---------------------------------------------------------------------------
// Server -> client
// ---------------------------------------------------------------------------

export interface ConnectionAckMsg {
  type: 'connectionAck';
  playerId: string;
  count: number;
  /** additive: proves this guest identity on reconnect (`/socket?playerId=…&secret=…`) */
  secret?: string;
}
export interface PlayerCountMsg { type: 'playerCount'; count: number }
export interface MatchmakingStatusMsg {
  type: 'matchmakingStatus';
  status: 'idle' | 'queued' | 'canceled';
  message: string;
}
export interface GameStartMsg {
  type: 'gameStart';
  gameId: string;
  color: Color;
  opponentId: string;
  opponentName?: string;
  /** seconds */
  timerDuration: number;
  currentState?: CurrentState;
}
export interface AiGameStartMsg {
  type: 'aiGameStart';
  gameId: string;
  color: Color;
  timerDuration: number;
  currentState?: CurrentState;
}
export interface GameMoveMsg {
  type: 'gameMove';
  gameId: string;
  move: WireMove;
  nextTurn: Color;
  /** additive */
  san?: string;
  fen?: string;
  clocks?: ClocksMs;
  seq?: number;
}
export interface TimerUpdateMsg {
  type: 'timerUpdate';
  gameId: string;
  timers: Timers;
  /** additive */
  clocks?: ClocksMs;
}
export interface GameEndMsg {
  type: 'gameEnd';
  gameId: string;
  winner: Winner;
  reason: GameEndReason;
  /** additive */
  pgn?: string;
}
export interface DrawOfferMsg { type: 'drawOffer'; gameId: string }
export interface DrawDeclinedMsg { type: 'drawDeclined'; gameId: string }
export interface OpponentDisconnectedMsg { type: 'opponentDisconnected'; message: string; gameId?: string }
export interface OpponentReconnectedMsg { type: 'opponentReconnected'; message: string; gameId?: string }
export interface ActiveGameStatusMsg {
  type: 'activeGameStatus';
  gameId: string | null;
  color?: Color;
  opponentId?: string;
}
export interface MoveRejectedMsg {
  type: 'moveRejected';
  message: string;
  /** additive: the game and its current position, so the client can resync */
  gameId?: string;
  fen?: string;
}
export interface GameCreatedMsg {
  type: 'gameCreated';
  gameId: string;
  playerColor: Color;
  opponentName: string;
}
export interface MoveMadeMsg {
  type: 'moveMade';
  gameId: string;
  move: WireMove;
  gameOver: boolean;
  /** additive */
  san?: string;
  fen?: string;
}
export interface GameOverMsg {
  type: 'gameOver';
  gameId: string;
  reason: GameEndReason;
  winner: Winner;
}
export interface ErrorMsg {
  type: 'error';
  message: string;
  /** additive: machine-readable reason */
  code?: string;
}
/** additive: graceful shutdown notice */
export interface ServerShutdownMsg { type: 'serverShutdown'; message: string }
/** additive: answer to identifyUser */
export interface IdentifiedMsg { type: 'identified'; playerId: string; username?: string }

export type ServerMessage =
  | ConnectionAckMsg
  | PlayerCountMsg
  | MatchmakingStatusMsg
  | GameStartMsg
  | AiGameStartMsg
  | GameMoveMsg
  | TimerUpdateMsg
  | GameEndMsg
  | DrawOfferMsg
  | DrawDeclinedMsg
  | OpponentDisconnectedMsg
  | OpponentReconnectedMsg
  | ActiveGameStatusMsg
  | MoveRejectedMsg
  | GameCreatedMsg
  | MoveMadeMsg
  | GameOverMsg
  | ErrorMsg
  | ServerShutdownMsg
  | IdentifiedMsg;

export type ServerMessageType = ServerMessage['type'];

// ---------------------------------------------------------------------------
// Client -> server
// ---------------------------------------------------------------------------

export interface ClientPayloads {
  findGame: { username?: string };
  cancelMatchmaking: undefined;
  gameMove: { gameId: string; move: WireMove };
  resign: { gameId: string };
  offerDraw: { gameId: string };
  acceptDraw: { gameId: string };
  declineDraw: { gameId: string };
  checkActiveGame: { playerId?: string };
  rejoinGame: { gameId: string };
  /** accessToken is additive and required: the server never trusts a bare id */
  identifyUser: { userId: string; accessToken: string };
  startAIGame: { options: { difficulty: number; playerColor: Color | 'random' } };
  playerMoveAI: { gameId: string; move: WireMove };
}

export type ClientMessageType = keyof ClientPayloads;

export type ClientMessage = {
  [K in ClientMessageType]: ClientPayloads[K] extends undefined
    ? { type: K; payload?: undefined }
    : { type: K; payload: ClientPayloads[K] };
}[ClientMessageType];

export const CLIENT_MESSAGE_TYPES: readonly ClientMessageType[] = [
  'findGame',
  'cancelMatchmaking',
  'gameMove',
  'resign',
  'offerDraw',
  'acceptDraw',
  'declineDraw',
  'checkActiveGame',
  'rejoinGame',
  'identifyUser',
  'startAIGame',
  'playerMoveAI',
];

/** Texts fixed by SPEC.md. */
export const TEXT = {
  activeGameRefusal: 'Cannot search for a new game while in an active game',
  anonymousName: 'Anonymous Player',
  aiOpponentName: 'Stockfish AI',
} as const;

/** The socket path on the server. */
export const SOCKET_PATH = '/socket';

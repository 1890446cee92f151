/**
 * One well-formed example of every protocol message, typed with the inferred protocol types.
 * The record types below list every message type, so a message added to the schemas without
 * an example here, or a field renamed or retyped in a schema, fails `tsc` (tests/typecheck.test.ts)
 * in this file; tests/protocol/schemas.test.ts checks the same examples against the schemas at
 * run time.
 */
import type {
  ClientMessage,
  ClientMessageType,
  CurrentState,
  LiveGameSummary,
  ServerMessageOf,
  ServerMessageType,
  WireMove,
} from '../../machines/protocol/messages';

const move: WireMove = { from: 'e2', to: 'e4' };
const custom = { timeControl: { initial: 300, increment: 3 }, rated: false, color: 'random' } as const;
const alice = { id: 'player_1', name: 'Alice', guest: true };
const currentState: CurrentState = {
  fen: 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
  turn: 'black',
  moves: [move],
  timers: { white: 600, black: 600 },
  clocks: { white: 600_000, black: 600_000 },
  seq: 1,
  drawOfferFrom: null,
};

const liveGame: LiveGameSummary = {
  gameId: 'g1',
  white: { name: 'alice', guest: false, rating: { rating: 1720, provisional: false } },
  black: { name: 'Guest 4821', guest: true, rating: null },
  timeControl: { initial: 180, increment: 2 },
  moves: 1,
  fen: currentState.fen,
  lastMove: 'e2e4',
  spectators: 0,
};

export const SERVER_SAMPLES: { [K in ServerMessageType]: ServerMessageOf<K> } = {
  connectionAck: { type: 'connectionAck', playerId: 'player_1', count: 3, secret: 's3cret' },
  playerCount: { type: 'playerCount', count: 3 },
  matchmakingStatus: { type: 'matchmakingStatus', status: 'queued', message: 'Searching for an opponent' },
  gameStart: {
    type: 'gameStart', gameId: 'g1', color: 'white', opponentId: 'player_2', opponentName: 'Bob', timerDuration: 600, currentState,
    ratings: { white: { rating: 1500, provisional: true }, black: null },
  },
  aiGameStart: { type: 'aiGameStart', gameId: 'ai_1', color: 'black', timerDuration: 0, currentState },
  gameMove: {
    type: 'gameMove', gameId: 'g1', move, nextTurn: 'black', san: 'e4', fen: currentState.fen, clocks: { white: 600_000, black: 600_000 }, seq: 1,
  },
  timerUpdate: { type: 'timerUpdate', gameId: 'g1', timers: { white: 598, black: 600 }, clocks: { white: 598_250, black: 600_000 } },
  gameEnd: { type: 'gameEnd', gameId: 'g1', winner: 'white', reason: 'checkmate', pgn: '1. e4 *' },
  drawOffer: { type: 'drawOffer', gameId: 'g1' },
  drawDeclined: { type: 'drawDeclined', gameId: 'g1' },
  takebackOffer: { type: 'takebackOffer', gameId: 'g1' },
  takebackDeclined: { type: 'takebackDeclined', gameId: 'g1' },
  takeback: { type: 'takeback', gameId: 'g1', plies: 1, fen: currentState.fen, turn: 'white', clocks: { white: 600_000, black: 600_000 }, seq: 0 },
  timeGiven: { type: 'timeGiven', gameId: 'g1', color: 'black', ms: 15_000, clocks: { white: 590_000, black: 615_000 } },
  chatMessage: { type: 'chatMessage', gameId: 'g1', room: 'player', name: 'Alice', color: 'white', text: 'good luck' },
  rematchOffer: { type: 'rematchOffer', gameId: 'g1' },
  rematchDeclined: { type: 'rematchDeclined', gameId: 'g1' },
  opponentDisconnected: { type: 'opponentDisconnected', message: 'Your opponent disconnected', gameId: 'g1', graceMs: 40_000 },
  opponentReconnected: { type: 'opponentReconnected', message: 'Your opponent reconnected', gameId: 'g1' },
  activeGameStatus: { type: 'activeGameStatus', gameId: 'g1', color: 'white', opponentId: 'player_2' },
  moveRejected: { type: 'moveRejected', message: 'Not your turn', gameId: 'g1', fen: currentState.fen },
  gameCreated: { type: 'gameCreated', gameId: 'ai_1', playerColor: 'black', opponentName: 'Stockfish AI' },
  moveMade: { type: 'moveMade', gameId: 'ai_1', move, gameOver: false, san: 'e4', fen: currentState.fen },
  gameOver: { type: 'gameOver', gameId: 'ai_1', reason: 'resignation', winner: 'black' },
  error: { type: 'error', message: 'Game not found or not yours.', code: 'unknown_game' },
  serverShutdown: { type: 'serverShutdown', message: 'The server is restarting' },
  identified: { type: 'identified', playerId: 'user-uuid', username: 'alice' },
  ratingChange: { type: 'ratingChange', gameId: 'g1', speed: 'rapid', white: { before: 1500, after: 1662.3 }, black: { before: 1500, after: 1337.7 } },
  guestGamesClaimed: { type: 'guestGamesClaimed', guestId: 'player_abcdefgh12', count: 3 },
  watchStart: {
    type: 'watchStart', gameId: 'g1', white: { name: 'Alice' }, black: { name: 'bob' }, timerDuration: 600,
    currentState: { fen: currentState.fen, turn: 'black', moves: [move], timers: { white: 600, black: 600 }, clocks: { white: 600_000, black: 600_000 }, seq: 1 },
    ratings: { white: null, black: { rating: 1500, provisional: true } },
  },
  watchStopped: { type: 'watchStopped', gameId: 'g1' },
  gameArchived: { type: 'gameArchived', gameId: 'g1' },
  lobbyHooks: { type: 'lobbyHooks', hooks: [{ id: 'hook_1', by: alice, ...custom, createdAt: 1_700_000_000_000 }] },
  lobbyHooksChanged: { type: 'lobbyHooksChanged', updated: [{ id: 'hook_2', by: alice, ...custom, createdAt: 1_700_000_001_000 }], removed: ['hook_1'] },
  challenge: { type: 'challenge', challenge: { id: 'c1', by: alice, ...custom, status: 'declined', declineReason: 'tooFast', createdAt: 1_700_000_000_000, endedAt: 1_700_000_005_000 } },
  liveGames: { type: 'liveGames', games: [liveGame] },
  liveGamesChanged: { type: 'liveGamesChanged', updated: [{ ...liveGame, moves: 2, spectators: 3 }], removed: ['g2'] },
  spectators: { type: 'spectators', gameId: 'g1', count: 3 },
};

export const CLIENT_SAMPLES: { [K in ClientMessageType]: Extract<ClientMessage, { type: K }> } = {
  findGame: { type: 'findGame', payload: { username: 'Alice' } },
  cancelMatchmaking: { type: 'cancelMatchmaking' },
  gameMove: { type: 'gameMove', payload: { gameId: 'g1', move: { ...move, piece: 'p' } } },
  resign: { type: 'resign', payload: { gameId: 'g1' } },
  offerDraw: { type: 'offerDraw', payload: { gameId: 'g1' } },
  acceptDraw: { type: 'acceptDraw', payload: { gameId: 'g1' } },
  declineDraw: { type: 'declineDraw', payload: { gameId: 'g1' } },
  offerRematch: { type: 'offerRematch', payload: { gameId: 'g1' } },
  declineRematch: { type: 'declineRematch', payload: { gameId: 'g1' } },
  checkActiveGame: { type: 'checkActiveGame', payload: { playerId: 'player_1' } },
  rejoinGame: { type: 'rejoinGame', payload: { gameId: 'g1' } },
  identifyUser: { type: 'identifyUser', payload: { userId: 'user-uuid', accessToken: 'eyJ...' } },
  startAIGame: { type: 'startAIGame', payload: { options: { difficulty: 5, playerColor: 'random' } } },
  playerMoveAI: { type: 'playerMoveAI', payload: { gameId: 'ai_1', move: { from: 'e7', to: 'e8', promotion: 'q' } } },
  claimGuestGames: { type: 'claimGuestGames', payload: { guestId: 'player_abcdefgh12', secret: 'c2VjcmV0' } },
  watchGame: { type: 'watchGame', payload: { gameId: 'g1' } },
  unwatchGame: { type: 'unwatchGame', payload: { gameId: 'g1' } },
  proposeTakeback: { type: 'proposeTakeback', payload: { gameId: 'g1' } },
  acceptTakeback: { type: 'acceptTakeback', payload: { gameId: 'g1' } },
  declineTakeback: { type: 'declineTakeback', payload: { gameId: 'g1' } },
  giveTime: { type: 'giveTime', payload: { gameId: 'g1' } },
  chatSend: { type: 'chatSend', payload: { gameId: 'g1', room: 'spectator', text: 'nice move' } },
  watchLobby: { type: 'watchLobby' },
  unwatchLobby: { type: 'unwatchLobby' },
  postHook: { type: 'postHook', payload: { options: custom, username: 'Alice' } },
  cancelHook: { type: 'cancelHook' },
  joinHook: { type: 'joinHook', payload: { hookId: 'hook_1' } },
  createChallenge: { type: 'createChallenge', payload: { options: { ...custom, rated: true }, to: 'bob' } },
  watchChallenge: { type: 'watchChallenge', payload: { challengeId: 'c1' } },
  acceptChallenge: { type: 'acceptChallenge', payload: { challengeId: 'c1' } },
  declineChallenge: { type: 'declineChallenge', payload: { challengeId: 'c1', reason: 'later' } },
  cancelChallenge: { type: 'cancelChallenge', payload: { challengeId: 'c1' } },
  watchLiveGames: { type: 'watchLiveGames' },
  unwatchLiveGames: { type: 'unwatchLiveGames' },
};

/**
 * The protocol's types refuse wrong shapes at compile time. Checked by `tsc` over the whole
 * project (tests/typecheck.test.ts): each line below must be a type error, and an
 * `@ts-expect-error` whose line compiles is itself an error, so loosening a schema (a field
 * made optional, an enum widened to string) fails the type-check here.
 */
import type { ClientMessage, ErrorMsg, GameMoveMsg, GameStartMsg, ServerMessage } from '../../machines/protocol/messages';

export const wrong: unknown[] = [
  // @ts-expect-error a move needs its destination square
  { type: 'gameMove', payload: { gameId: 'g', move: { from: 'e2' } } } satisfies ClientMessage,
  // @ts-expect-error a gameMove names its game
  { type: 'gameMove', payload: { move: { from: 'e2', to: 'e4' } } } satisfies ClientMessage,
  // @ts-expect-error promotion is one of q, r, b, n
  { type: 'gameMove', payload: { gameId: 'g', move: { from: 'e7', to: 'e8', promotion: 'k' } } } satisfies ClientMessage,
  // @ts-expect-error startAIGame carries its options
  { type: 'startAIGame', payload: {} } satisfies ClientMessage,
  // @ts-expect-error difficulty is a number
  { type: 'startAIGame', payload: { options: { difficulty: '5', playerColor: 'white' } } } satisfies ClientMessage,
  // @ts-expect-error playerColor is white, black or random
  { type: 'startAIGame', payload: { options: { difficulty: 5, playerColor: 'green' } } } satisfies ClientMessage,
  // @ts-expect-error identifyUser proves the id with an access token
  { type: 'identifyUser', payload: { userId: 'u1' } } satisfies ClientMessage,
  // @ts-expect-error there is no such client message
  { type: 'move', payload: { gameId: 'g' } } satisfies ClientMessage,
  // @ts-expect-error nextTurn is a colour
  { type: 'gameMove', gameId: 'g', move: { from: 'e2', to: 'e4' }, nextTurn: 'w' } satisfies GameMoveMsg,
  // @ts-expect-error a gameStart says which colour the player has
  { type: 'gameStart', gameId: 'g', opponentId: 'p', timerDuration: 600 } satisfies GameStartMsg,
  // @ts-expect-error an error's code is one of the documented codes
  { type: 'error', message: 'x', code: 'oops' } satisfies ErrorMsg,
  // @ts-expect-error a field outside the contract is refused too
  { type: 'drawOffer', gameId: 'g', by: 'white' } satisfies ServerMessage,
  // @ts-expect-error gameEnd reasons are the documented ones
  { type: 'gameEnd', gameId: 'g', winner: 'white', reason: 'flag' } satisfies ServerMessage,
];

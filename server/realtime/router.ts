/**
 * Where each client message goes: the game messages to the rounds, every
 * other message to its route in one table, so a message type without a route fails `tsc`.
 */
import type { ClientMessageType, ErrorCode, GameCommandMsg, ParsedMessage, ParsedPayloads, ServerMessage } from '../../machines/protocol/messages';
import type { ParseResult } from '../../machines/protocol/parse';
import type { Lobby } from '../round/lobby';
import type { LobbyHooks } from '../lobby/hooks';
import type { Challenges } from '../challenge/challenges';
import type { PlayerSession, WS } from './hub';
import type { Replies } from './replies';
import type { SocketAccount } from './socketAccount';
import type { Spectators, WatchRefusal } from './spectators';
import type { GameChat } from '../chat/chat';
import type { LiveGamesFeed } from './liveGames';

type RoutedType = Exclude<ClientMessageType, GameCommandMsg['type']>;
type RoutedMessage = Extract<ParsedMessage, { type: RoutedType }>;
type Route<K extends RoutedType> = (ws: WS, session: PlayerSession, payload: ParsedPayloads[K]) => void;
export type Routes = { [K in RoutedType]: Route<K> };

export function routes(lobby: Lobby, account: SocketAccount, spectators: Spectators, liveGames: LiveGamesFeed, replies: Replies, chat: GameChat, { hooks, challenges }: { hooks: LobbyHooks; challenges: Challenges }): Routes {
  const refuseWatch = (ws: WS, gameId: string, refused: WatchRefusal | null) => {
    if (refused) replies.reject(ws, refused.code, refused.message, true, gameId);
  };
  return {
    findGame: (_ws, s, payload) => lobby.findGame(s, payload),
    cancelMatchmaking: (_ws, s) => lobby.cancel(s),
    startAIGame: (ws, s, payload) => lobby.startAi(s, payload, ws.getUserData().address),
    identifyUser: (ws, _s, payload) => void account.identify(ws, payload),
    claimGuestGames: (ws, s, payload) => void account.claimGuestGames(ws, s, payload),
    watchGame: (ws, _s, { gameId }) => {
      const answer = spectators.watch(ws, gameId);
      // a game played on another node is answered once its owner is known
      if (answer instanceof Promise) return void answer.then((refused) => refuseWatch(ws, gameId, refused));
      refuseWatch(ws, gameId, answer);
    },
    unwatchGame: (ws, _s, { gameId }) => refuseWatch(ws, gameId, spectators.unwatch(ws, gameId)),
    chatSend: (ws, s, payload) => chat.send(ws, s, payload),
    watchLobby: (_ws, s) => hooks.watch(s),
    unwatchLobby: (_ws, s) => hooks.unwatch(s),
    postHook: (_ws, s, { options, username }) => void hooks.post(s, options, username),
    cancelHook: (_ws, s) => void hooks.cancel(s),
    joinHook: (_ws, s, { hookId, username }) => void hooks.join(s, hookId, username),
    createChallenge: (_ws, s, { options, to, username }) => void challenges.create(s, options, to, username),
    watchChallenge: (_ws, s, { challengeId }) => void challenges.watch(s, challengeId),
    acceptChallenge: (_ws, s, { challengeId, username }) => void challenges.accept(s, challengeId, username),
    declineChallenge: (_ws, s, { challengeId, reason }) => void challenges.decline(s, challengeId, reason),
    cancelChallenge: (_ws, s, { challengeId }) => void challenges.cancel(s, challengeId),
    watchLiveGames: (ws) => liveGames.watch(ws),
    unwatchLiveGames: (ws) => liveGames.unwatch(ws),
  };
}

/** Hands a message that is not a round command to its route. */
export function dispatch<K extends RoutedType>(table: Routes, ws: WS, session: PlayerSession, msg: RoutedMessage & { type: K; payload: ParsedPayloads[K] }): void {
  table[msg.type](ws, session, msg.payload);
}

type ParseRefusal = Extract<ParseResult, { ok: false }>;
interface Refusal {
  reason: ErrorCode;
  detail: string;
  answer: ServerMessage;
}

/** How a message with a bad payload is answered where the generic error will not do. */
const refusedMove = (p: ParseRefusal): Refusal => ({ reason: p.reason, detail: p.detail, answer: { type: 'moveRejected', message: p.detail } });
const BAD_PAYLOAD = new Map<string, (p: ParseRefusal) => Refusal>([
  // a move is answered as a refused move, so the board goes back
  ['gameMove', refusedMove],
  ['playerMoveAI', refusedMove],
  [
    'startAIGame',
    (p) => {
      const message = `Invalid AI game options: ${p.issue ?? p.detail}`;
      return { reason: 'invalid_options', detail: message, answer: { type: 'error', code: 'invalid_options', message } };
    },
  ],
] satisfies [ClientMessageType, (p: ParseRefusal) => Refusal][]);

/** The answer to a message that did not parse. */
export function refusalOf(p: ParseRefusal): Refusal {
  const special = p.reason === 'invalid_payload' && p.type !== undefined ? BAD_PAYLOAD.get(p.type) : undefined;
  return special ? special(p) : { reason: p.reason, detail: p.detail, answer: { type: 'error', code: p.reason, message: p.detail } };
}

/**
 * The game against the AI outlives its screen: one actor for the page's lifetime, fed by the
 * socket from the moment this module loads. Leaving the screen does not lose a running game. A
 * game against the AI is an ordinary game on the server: its messages are every game's (gameStart
 * naming the engine's level, gameMove, timerUpdate, gameEnd); after a reload or a reconnect the
 * session asks for its game (checkActiveGame, then rejoinGame) as the multiplayer screen does.
 */
import { createActor, type ActorRefFrom } from 'xstate';
import { aiGameMachine } from '../../../../machines/client/aiGame';
import { getInspect } from '../../app/inspector';
import { askActiveGame } from '../../app/gameInProgress';
import { getConnection, getIdentity, onMessage, send } from '../../app/services';

export type AiSession = ActorRefFrom<typeof aiGameMachine>;

let session: AiSession | null = null;

export function getAiSession(): AiSession {
  if (session) return session;
  const ai = createActor(aiGameMachine, { input: { now: () => performance.now() }, inspect: getInspect() });
  session = ai;
  ai.on('send', (e) => send(e.message));
  const playing = () => ai.getSnapshot().matches('playing');
  const ours = (gameId: string) => ai.getSnapshot().context.gameId === gameId;
  onMessage('gameCreated', (m) => ai.send({ type: 'GAME_CREATED', msg: m }));
  onMessage('gameStart', (m) => {
    if (m.engineLevel !== undefined) ai.send({ type: 'AI_GAME_START', msg: m });
  });
  onMessage('gameMove', (m) => {
    if (ours(m.gameId)) ai.send({ type: 'MOVE_MADE', msg: m });
  });
  onMessage('timerUpdate', (m) => ai.send({ type: 'TIMER_UPDATE', msg: m }));
  onMessage('gameEnd', (m) => {
    if (ours(m.gameId)) ai.send({ type: 'GAME_OVER', msg: m });
  });
  onMessage('error', (m) => {
    const snap = ai.getSnapshot();
    if (snap.matches('playing') || snap.matches('starting')) ai.send({ type: 'ERROR', message: m.message });
  });
  onMessage('moveRejected', (m) => {
    if (!m.gameId || ours(m.gameId)) ai.send({ type: 'REJECTED', message: m.message, fen: m.fen });
  });
  // a game against the AI still running on the server (after a reload): shown again
  onMessage('activeGameStatus', (m) => {
    if (m.gameId && m.engineLevel !== undefined && !(playing() && ours(m.gameId))) send({ type: 'rejoinGame', payload: { gameId: m.gameId } });
  });
  // connected (again): the game as it stands now, or whether there is one (after a reload)
  const afterConnect = () => {
    const { gameId } = ai.getSnapshot().context;
    if (playing() && gameId) send({ type: 'rejoinGame', payload: { gameId } });
    else askActiveGame();
  };
  const isAccount = () => getIdentity().getSnapshot().context.user !== null;
  onMessage('connectionAck', () => { if (!isAccount()) afterConnect(); });
  onMessage('identified', afterConnect);
  ai.start();
  if (getConnection().getSnapshot().context.connected) askActiveGame();
  return ai;
}

/**
 * The game against the AI outlives its screen: one actor for the page's lifetime, fed by the
 * socket from the moment this module loads. Leaving the screen does not lose a running game, and
 * the server's `aiGameStart` that resumes a game after a reload (sent as soon as the socket is
 * back, usually before this lazily loaded module exists) is replayed from the message buffer.
 */
import { createActor, type ActorRefFrom } from 'xstate';
import { aiGameMachine } from '../../../../machines/client/aiGame';
import { getInspect } from '../../app/inspector';
import { runningAiGame } from '../../app/gameInProgress';
import { onMessage, send } from '../../app/services';

export type AiSession = ActorRefFrom<typeof aiGameMachine>;

let session: AiSession | null = null;


export function getAiSession(): AiSession {
  if (session) return session;
  const ai = createActor(aiGameMachine, { input: { now: () => performance.now() }, inspect: getInspect() });
  session = ai;
  ai.on('send', (e) => send(e.message));
  onMessage('gameCreated', (m) => ai.send({ type: 'GAME_CREATED', msg: m }));
  onMessage('aiGameStart', (m) => ai.send({ type: 'AI_GAME_START', msg: m }));
  onMessage('moveMade', (m) => ai.send({ type: 'MOVE_MADE', msg: m }));
  onMessage('gameOver', (m) => ai.send({ type: 'GAME_OVER', msg: m }));
  onMessage('error', (m) => {
    const snap = ai.getSnapshot();
    if (snap.matches('playing') || snap.matches('starting')) ai.send({ type: 'ERROR', message: m.message });
  });
  onMessage('moveRejected', (m) => ai.send({ type: 'REJECTED', message: m.message, fen: m.fen }));
  ai.start();
  const resume = runningAiGame();
  if (resume) ai.send({ type: 'AI_GAME_START', msg: resume });
  return ai;
}

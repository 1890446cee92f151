/**
 * The game this player has running on the server, wherever on the site they are (docs/product.md,
 * Home): a multiplayer game the server reports to `checkActiveGame`, or an AI game it started or
 * resumed (`aiGameStart` not followed by that game's `gameOver`). Its clock may be running.
 */
import { useEffect, useState } from 'react';
import type { AiGameStartMsg } from '../../../machines/protocol/messages';
import { getConnection, getIdentity, getPlayerId, lastMessage, onMessage, send } from './services';

/** The server's start or resume of an AI game that nothing has ended since, if any. */
export function runningAiGame(): AiGameStartMsg | null {
  const start = lastMessage('aiGameStart');
  if (!start) return null;
  const over = lastMessage('gameOver');
  return over && over.seq > start.seq && over.msg.gameId === start.msg.gameId ? null : start.msg;
}

/** Where the player's running game is played, or null when there is none. */
export function useGameInProgress(): { path: string } | null {
  const [multiplayer, setMultiplayer] = useState<string | null>(null);
  const [ai, setAi] = useState<string | null>(() => runningAiGame()?.gameId ?? null);
  useEffect(() => {
    const ask = () => send({ type: 'checkActiveGame', payload: { playerId: getPlayerId() ?? undefined } });
    // an account is only itself on the socket once `identified` arrives
    const isAccount = () => getIdentity().getSnapshot().context.user !== null;
    const offs = [
      onMessage('activeGameStatus', (m) => setMultiplayer(m.gameId)),
      onMessage('gameEnd', (m) => setMultiplayer((id) => (id === m.gameId ? null : id))),
      onMessage('aiGameStart', (m) => setAi(m.gameId)),
      onMessage('gameOver', (m) => setAi((id) => (id === m.gameId ? null : id))),
      onMessage('connectionAck', () => { if (!isAccount()) ask(); }),
      onMessage('identified', ask),
    ];
    if (getConnection().getSnapshot().context.connected) ask();
    return () => offs.forEach((off) => off());
  }, []);
  if (multiplayer) return { path: `/game/${multiplayer}` };
  return ai ? { path: '/chess/ai' } : null;
}

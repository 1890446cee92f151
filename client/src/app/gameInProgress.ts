/**
 * The game this player has running on the server, wherever on the site they are (docs/product.md,
 * Home): the game the server reports to `checkActiveGame`, against a player or against the AI
 * (its opponent the engine: `engineLevel`). Its clock may be running.
 */
import { useEffect, useState } from 'react';
import { getConnection, getIdentity, getPlayerId, onMessage, send } from './services';

/** Asks the server which game the player has running (activeGameStatus answers). */
export function askActiveGame(): void {
  send({ type: 'checkActiveGame', payload: { playerId: getPlayerId() ?? undefined } });
}

/** Where the player's running game is played, or null when there is none. */
export function useGameInProgress(): { path: string } | null {
  const [multiplayer, setMultiplayer] = useState<string | null>(null);
  const [ai, setAi] = useState<string | null>(null);
  useEffect(() => {
    const ask = askActiveGame;
    // an account is only itself on the socket once `identified` arrives
    const isAccount = () => getIdentity().getSnapshot().context.user !== null;
    const offs = [
      onMessage('activeGameStatus', (m) => {
        setMultiplayer(m.engineLevel === undefined ? m.gameId : null);
        setAi(m.engineLevel === undefined ? null : m.gameId);
      }),
      onMessage('gameStart', (m) => (m.engineLevel === undefined ? setMultiplayer : setAi)(m.gameId)),
      onMessage('gameEnd', (m) => {
        setMultiplayer((id) => (id === m.gameId ? null : id));
        setAi((id) => (id === m.gameId ? null : id));
      }),
      onMessage('connectionAck', () => { if (!isAccount()) ask(); }),
      onMessage('identified', ask),
    ];
    if (getConnection().getSnapshot().context.connected) ask();
    return () => offs.forEach((off) => off());
  }, []);
  if (multiplayer) return { path: `/game/${multiplayer}` };
  return ai ? { path: '/chess/ai' } : null;
}

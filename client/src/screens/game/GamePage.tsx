/**
 * /game/:id, the one page of a game (docs/product.md, "The game page"): its player plays it
 * there (./PlayGame.tsx); anyone else watches it live, and once it is over everyone gets its
 * replay and analysis (../archive/GameReplay.tsx).
 */
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { getConnection, getIdentity, getPlayerId, lastMessage, onMessage, send } from '../../app/services';
import { GameReplay } from '../archive/GameReplay';
import { PlayGame } from './PlayGame';

/** How long the page waits for the server to say whose game it is (the socket may still be connecting). */
const ANSWER_WAIT_MS = 5_000;

type Seat = 'asking' | 'player' | 'visitor';

/** Whether this tab's player just got game `id` from matchmaking (or a rematch) and it has not ended. */
function justStarted(id: string): boolean {
  const start = lastMessage('gameStart');
  if (!start || start.msg.gameId !== id) return false;
  const end = lastMessage('gameEnd');
  return !(end && end.seq > start.seq && end.msg.gameId === id);
}

/** Whether this player has a seat in game `id`: the server's answer to `checkActiveGame`. */
function useSeat(id: string): [Seat, () => void] {
  const [seat, setSeat] = useState<{ id: string; seat: Seat }>(() => ({ id, seat: justStarted(id) ? 'player' : 'asking' }));
  const current = seat.id === id ? seat.seat : justStarted(id) ? 'player' : 'asking';
  useEffect(() => {
    if (current !== 'asking') return;
    const decide = (next: Seat) => setSeat((s) => (s.id === id && s.seat !== 'asking' ? s : { id, seat: next }));
    const ask = () => send({ type: 'checkActiveGame', payload: { playerId: getPlayerId() ?? undefined } });
    const isAccount = () => getIdentity().getSnapshot().context.user !== null;
    const offs = [
      onMessage('activeGameStatus', (m) => decide(m.gameId === id ? 'player' : 'visitor')),
      onMessage('connectionAck', () => { if (!isAccount()) ask(); }),
      onMessage('identified', ask),
    ];
    if (getConnection().getSnapshot().context.connected) ask();
    const wait = setTimeout(() => decide('visitor'), ANSWER_WAIT_MS);
    return () => {
      offs.forEach((off) => off());
      clearTimeout(wait);
    };
  }, [id, current]);
  const notMine = useCallback(() => setSeat({ id, seat: 'visitor' }), [id]);
  return [current, notMine];
}

export default function GamePage() {
  const { id = '' } = useParams();
  const [seat, notMine] = useSeat(id);
  if (seat === 'asking') return <Page><Spinner label="Loading game..." /></Page>;
  if (seat === 'player') return <PlayGame key={id} gameId={id} onNotMine={notMine} />;
  return <GameReplay key={id} id={id} />;
}

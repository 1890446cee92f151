/**
 * Challenges as the pages follow them: the latest record of each challenge this tab has heard of,
 * and the move to a game's page once a game starts from one (the server's `gameStart`).
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Challenge } from '../../../machines/protocol/messages';
import { getPlayerId, onMessage, send } from './services';

/** Goes to the game's page when a game of this player starts (a challenge accepted). */
export function useGoToStartedGame(): void {
  const navigate = useNavigate();
  useEffect(() => onMessage('gameStart', (m) => navigate(`/game/${m.gameId}`)), [navigate]);
}

export type ChallengeView = { state: 'loading' } | { state: 'missing'; message: string } | { state: 'shown'; challenge: Challenge };

/** The challenge `id` as it stands, asked for whenever the socket is (again) open. */
export function useChallenge(id: string, open: boolean): ChallengeView {
  const [view, setView] = useState<ChallengeView>({ state: 'loading' });
  useEffect(() => {
    const offs = [
      onMessage('challenge', (m) => { if (m.challenge.id === id) setView({ state: 'shown', challenge: m.challenge }); }),
      onMessage('error', (m) => {
        if (m.code === 'challenge_unavailable') setView((v) => (v.state === 'loading' ? { state: 'missing', message: m.message } : v));
      }),
    ];
    if (open) send({ type: 'watchChallenge', payload: { challengeId: id } });
    return () => offs.forEach((off) => off());
  }, [id, open]);
  return view;
}

/** The open challenges to this player (by username) heard of so far, kept across pages. */
let incoming: Challenge[] = [];
const incomingListeners = new Set<() => void>();
let followingIncoming = false;

function followIncoming(): void {
  if (followingIncoming) return;
  followingIncoming = true;
  onMessage('challenge', (m) => {
    const c = m.challenge;
    if (!c.to || c.by.id === getPlayerId()) return;
    incoming = [...incoming.filter((x) => x.id !== c.id), ...(c.status === 'created' ? [c] : [])];
    for (const l of incomingListeners) l();
  });
}

export function useIncomingChallenges(): Challenge[] {
  followIncoming();
  return useSyncExternalStore(
    (l) => { incomingListeners.add(l); return () => incomingListeners.delete(l); },
    () => incoming,
  );
}

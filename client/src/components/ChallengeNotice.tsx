/**
 * The notice of a challenge to this player (by username), on any page: who challenges them with
 * what, Accept (then the game's page) or Decline; it goes once the challenge is answered,
 * cancelled or expired.
 */
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { creatorText, customGameLine, viewerColorText } from '../../../machines/client/challengeText';
import { getIdentity, onMessage, send } from '../app/services';
import { useIncomingChallenges } from '../app/challenges';

export function ChallengeNotices() {
  const navigate = useNavigate();
  const open = useIncomingChallenges();
  const accepted = useRef<string | null>(null);
  const signedIn = useSelector(getIdentity(), (s) => s.context.user !== null);
  useEffect(() => {
    const offs = [
      // the game of the challenge accepted here: its page
      onMessage('gameStart', (m) => {
        if (accepted.current === null) return;
        accepted.current = null;
        navigate(`/game/${m.gameId}`);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [navigate]);
  if (!signedIn || open.length === 0) return null;
  return (
    <div className="challenge-notices" aria-live="polite">
      {open.map((c) => (
        <div key={c.id} className="challenge-notice" role="alert" data-testid="challenge-notice">
          <p><strong>{creatorText(c.by)}</strong> challenges you: {customGameLine(c)}. {viewerColorText(c.color, false)}.</p>
          <div className="custom-row">
            <button type="button" className="btn btn-small btn-primary" onClick={() => {
              accepted.current = c.id;
              send({ type: 'acceptChallenge', payload: { challengeId: c.id } });
            }}>Accept</button>
            <button type="button" className="btn btn-small btn-secondary" onClick={() => send({ type: 'declineChallenge', payload: { challengeId: c.id } })}>Decline</button>
            <Link to={`/challenge/${c.id}`} className="btn btn-small btn-link">Details</Link>
          </div>
        </div>
      ))}
    </div>
  );
}

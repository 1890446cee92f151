/**
 * A profile's "Challenge" (docs/product.md): for a signed-in visitor of another player's profile,
 * the custom-game form; sent, the challenge's page, where the challenger waits for the answer.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import type { CustomGame } from '../../../../machines/protocol/messages';
import { sameName } from '../../../../machines/lobby/rules';
import { getConnection, getIdentity, getPlayerId, onMessage, send } from '../../app/services';
import { CustomGameForm } from '../../components/CustomGameForm';

export function ChallengeButton({ username }: { username: string }) {
  const navigate = useNavigate();
  const me = useSelector(getIdentity(), (s) => {
    const name = s.context.user?.user_metadata?.username;
    return s.context.user ? (typeof name === 'string' ? name : '') : null;
  });
  const open = useSelector(getConnection(), (s) => !s.matches('parked') && s.context.connected);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    const offs = [
      onMessage('challenge', (m) => {
        const c = m.challenge;
        if (!sent.current || c.by.id !== getPlayerId() || c.status !== 'created' || !c.to || !sameName(c.to, username)) return;
        sent.current = false;
        navigate(`/challenge/${c.id}`);
      }),
      onMessage('error', (m) => {
        if (sent.current && m.code && ['challenge_limit', 'not_signed_in', 'invalid_options', 'rated_needs_account', 'unavailable'].includes(m.code)) {
          sent.current = false;
          setError(m.message);
        }
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [navigate, username]);
  // guests cannot challenge by username, nor may anyone challenge themselves
  if (me === null || sameName(me, username)) return null;
  const challenge = (options: CustomGame) => {
    setError(null);
    sent.current = true;
    send({ type: 'createChallenge', payload: { options, to: username } });
  };
  return (
    <section className="card" aria-label="Challenge">
      {shown ? (
        <>
          <h2>Challenge {username}</h2>
          <CustomGameForm signedIn disabled={!open} actions={[{ label: 'Send challenge', onPick: challenge, primary: true, testId: 'send-challenge' }]} />
          {error && <p className="notice" role="alert">{error}</p>}
        </>
      ) : (
        <button type="button" className="btn btn-primary" data-testid="challenge-player" onClick={() => setShown(true)}>Challenge to a game</button>
      )}
    </section>
  );
}

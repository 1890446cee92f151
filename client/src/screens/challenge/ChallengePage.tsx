/**
 * /challenge/:id (docs/product.md, "A challenge"): who challenges whom with what, and the answer.
 * Its creator waits here (the link to share, Cancel) and sees it accepted; anyone else it is for
 * may accept or decline it (with a reason). Accepted, both players go to the game's page.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import type { DeclineReason } from '../../../../machines/protocol/messages';
import { DECLINE_LABEL, DECLINE_TEXT, challengeOutcome, creatorText, customGameLine, viewerColorText } from '../../../../machines/client/challengeText';
import { displayName } from '../../../../machines/client/identity';
import { getConnection, getIdentity, getPlayerId, send } from '../../app/services';
import { useChallenge, useGoToStartedGame } from '../../app/challenges';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';

const REASONS = Object.keys(DECLINE_TEXT) as DeclineReason[];

export default function ChallengePage() {
  const { id = '' } = useParams();
  const open = useSelector(getConnection(), (s) => !s.matches('parked') && s.context.connected);
  const signedIn = useSelector(getIdentity(), (s) => s.context.user !== null);
  const myName = useSelector(getIdentity(), (s) => displayName(s.context));
  const view = useChallenge(id, open);
  const [reason, setReason] = useState<DeclineReason>('generic');
  const [copied, setCopied] = useState(false);
  useGoToStartedGame();

  if (view.state === 'loading') return <Page><Spinner label="Loading challenge..." /></Page>;
  if (view.state === 'missing') return <Page narrow><h1>Challenge not found</h1><p>{view.message}</p><Link to="/chess/multiplayer" className="btn">Play</Link></Page>;
  const c = view.challenge;
  const mine = c.by.id === getPlayerId();
  const outcome = challengeOutcome(c);
  const link = `${location.origin}/challenge/${c.id}`;
  const copy = () => void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => setCopied(false));
  return (
    <Page narrow>
      <section className="card challenge-card" data-testid="challenge" data-status={c.status}>
        <h1>{mine ? (c.to ? `Your challenge to ${c.to}` : 'Your challenge') : `${creatorText(c.by)} challenges you`}</h1>
        <p className="challenge-tc" data-testid="challenge-game">{customGameLine(c)}</p>
        <p>{viewerColorText(c.color, mine)}</p>
        {outcome ? (
          <>
            <p className="notice" role="status" data-testid="challenge-outcome">{outcome}</p>
            {c.gameId && <Link to={`/game/${c.gameId}`} className="btn btn-primary">Go to the game</Link>}
          </>
        ) : mine ? (
          <>
            <p className="searching" aria-live="polite"><span className="spinner spinner-sm" aria-hidden="true" /> Waiting for {c.to ?? 'your opponent'} to accept...</p>
            {!c.to && (
              <>
                <label htmlFor="challenge-link">Give this link to the player you challenge:</label>
                <div className="custom-row">
                  <input id="challenge-link" className="challenge-link" readOnly value={link} data-testid="challenge-link" onFocus={(e) => e.currentTarget.select()} />
                  <button type="button" className="btn btn-small btn-secondary" onClick={copy}>{copied ? 'Copied' : 'Copy'}</button>
                </div>
              </>
            )}
            <p className="hint">The challenge stays open while you are on the site.</p>
            <button type="button" className="btn btn-secondary" disabled={!open} onClick={() => send({ type: 'cancelChallenge', payload: { challengeId: c.id } })}>Cancel challenge</button>
          </>
        ) : (
          <>
            {c.rated && !signedIn && <p className="notice">A rated game is for signed-in players. <Link to="/login">Sign in</Link> to accept it.</p>}
            <div className="custom-row">
              <button type="button" className="btn btn-primary" data-testid="accept-challenge" disabled={!open || (c.rated && !signedIn)}
                onClick={() => send({ type: 'acceptChallenge', payload: { challengeId: c.id, username: myName } })}>Accept</button>
              <button type="button" className="btn btn-secondary" data-testid="decline-challenge" disabled={!open}
                onClick={() => send({ type: 'declineChallenge', payload: { challengeId: c.id, reason } })}>Decline</button>
              <label>
                Reason{' '}
                <select value={reason} onChange={(e) => setReason(REASONS.find((r) => r === e.target.value) ?? 'generic')}>
                  {REASONS.map((r) => <option key={r} value={r}>{DECLINE_LABEL[r]}</option>)}
                </select>
              </label>
            </div>
          </>
        )}
      </section>
    </Page>
  );
}

import { useSelector } from '@xstate/react';
import { Link, useNavigate } from 'react-router-dom';
import { Page } from '../components/Page';
import { GuestImportOffer } from '../components/GuestImportOffer';
import { getIdentity } from '../app/services';
import { useGameInProgress } from '../app/gameInProgress';
import { signOut } from '../app/auth';
import { displayName } from '../../../machines/client/identity';
import { useOwnProfilePath } from '../components/Header';

export const VERSION = '1.0.0';

export function Home() {
  const navigate = useNavigate();
  const { state, name } = useSelector(getIdentity(), (s) => ({ state: s.value as string, name: displayName(s.context) }), (a, b) => a.state === b.state && a.name === b.name);
  const signedIn = state === 'guest' || state === 'authenticated';
  const profile = useOwnProfilePath();
  const running = useGameInProgress();
  return (
    <Page narrow>
      <GuestImportOffer />
      <section className="card home">
        <h1>Chess</h1>
        {state === 'authenticated' && <p className="identity-line">Signed in as <strong>{name}</strong></p>}
        {state === 'guest' && <p className="identity-line">Playing as <strong>{name}</strong></p>}
        {running && (
          <p className="notice game-in-progress" role="status" data-testid="game-in-progress">
            You have a game in progress. <Link to={running.path}>Back to your game</Link>
          </p>
        )}
        <nav className="menu" aria-label="Main menu">
          {!signedIn && state !== 'resolving' && <Link className="btn btn-primary" to="/guest">Play as Guest</Link>}
          {signedIn && <Link className="btn btn-primary" to="/chess">Play Chess</Link>}
          {signedIn && <Link className="btn" to="/chess/stats">Your Stats</Link>}
          {profile && <Link className="btn" to={profile}>Your Profile</Link>}
          <Link className="btn" to="/leaderboard">Leaderboard</Link>
          <Link className="btn" to="/settings">Settings</Link>
          {!signedIn && state !== 'resolving' && <Link className="btn" to="/login">Login</Link>}
          {!signedIn && state !== 'resolving' && <Link className="btn" to="/register">Register</Link>}
          {signedIn && (
            <button type="button" className="btn btn-secondary" onClick={async () => { await signOut(); navigate('/login'); }}>
              Logout
            </button>
          )}
        </nav>
        <p className="version">Version {VERSION}</p>
      </section>
    </Page>
  );
}

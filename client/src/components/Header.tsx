/**
 * The header: chess logo, the site's sections (Play, Leaderboard, the signed-in player's Profile,
 * Settings), player count ("Connecting..." while down) and a green/red dot; and the notices of
 * challenges to the player signed in.
 */
import { useSelector } from '@xstate/react';
import { Link, NavLink } from 'react-router-dom';
import { getConnection, getIdentity } from '../app/services';
import { ChallengeNotices } from './ChallengeNotice';

/** The public profile of the account signed in (`/@/name`), or null for a guest or an account without a username yet. */
export function useOwnProfilePath(): string | null {
  return useSelector(getIdentity(), (s) => {
    const name = s.context.user?.user_metadata?.username;
    return typeof name === 'string' && name ? `/@/${encodeURIComponent(name)}` : null;
  });
}

export function Header() {
  const { connected, count } = useSelector(getConnection(), (s) => ({ connected: s.context.connected, count: s.context.count }), (a, b) => a.connected === b.connected && a.count === b.count);
  const profile = useOwnProfilePath();
  return (
    <header className="site-header">
      <Link to="/" className="logo" aria-label="Chess home">
        <svg viewBox="0 0 45 45" width="28" height="28" aria-hidden="true"><g fill="currentColor" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round"><path d="M22 10c10.5 1 16.5 8 16 29H15c0-9 10-6.5 8-21"/><path d="M24 18c.38 2.91-5.55 7.37-8 9-3 2-2.820 4.340-5 4-1.042-.94 1.41-3.04 0-3-1 0 .19 1.230-1 2-1 0-4.003 1-4-4 0-2 6-12 6-12s1.89-1.9 2-3.5c-.73-.994-.5-2-.5-3 1-1 3 2.5 3 2.5h2s.78-1.992 2.5-3c1 0 1 3 1 3"/></g></svg>
        <span className="logo-text">Chess</span>
      </Link>
      <nav className="site-nav" aria-label="Site">
        <NavLink to="/chess">Play</NavLink>
        <NavLink to="/games">Watch</NavLink>
        <NavLink to="/tv">TV</NavLink>
        <NavLink to="/leaderboard">Leaderboard</NavLink>
        {profile && <NavLink to={profile}>Profile</NavLink>}
        <NavLink to="/settings">Settings</NavLink>
      </nav>
      {/* not a live region: a screen reader would read out every change of the count */}
      <div className="player-count" data-testid="player-count">
        <span className={connected ? 'dot dot-on' : 'dot dot-off'} aria-label={connected ? 'Connected' : 'Not connected'} role="img" />
        {connected && count !== null ? (
          <span>
            {count} <span className="long-label">{count === 1 ? 'Player' : 'Players'} </span>Online
          </span>
        ) : (
          <span>Connecting...</span>
        )}
      </div>
      <ChallengeNotices />
    </header>
  );
}

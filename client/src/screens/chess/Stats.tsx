/**
 * Your Chess Stats (docs/product.md, Screens). A signed-in player's come from the server's
 * archive (the same on every device); a guest's from this device's history.
 */
import { Link } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { getIdentity } from '../../app/services';
import { useArchive } from '../../app/archiveApi';
import { GameRows } from '../archive/gameRows';
import { ARCHIVE_API, ownProfileSchema } from '../../../../machines/protocol/archive';
import { clearHistory, useHistory } from '../../app/history';
import { formatWinRate, reasonLabel, summarize } from '../../../../machines/client/outcome';

export const CLEAR_CONFIRMATION = 'Are you sure you want to clear your entire game history? This action cannot be undone.';
const RESULT_LABEL = { win: 'Win', loss: 'Loss', draw: 'Draw' } as const;

function Tiles({ total, wins, losses, draws }: { total: number; wins: number; losses: number; draws: number }) {
  return (
    <div className="tiles">
      <div className="tile"><span className="tile-value" data-testid="stat-total">{total}</span><span>Total Games</span></div>
      <div className="tile tile-win"><span className="tile-value" data-testid="stat-wins">{wins}</span><span>Wins</span></div>
      <div className="tile tile-loss"><span className="tile-value" data-testid="stat-losses">{losses}</span><span>Losses</span></div>
      <div className="tile tile-draw"><span className="tile-value" data-testid="stat-draws">{draws}</span><span>Draws</span></div>
    </div>
  );
}

function WinRate({ rate }: { rate: number }) {
  return (
    <section className="card">
      <div className="winrate-head"><span>Win Rate</span><strong data-testid="win-rate">{formatWinRate(rate)}</strong></div>
      <div className="winrate-bar" role="progressbar" aria-label="Win rate" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Number(rate.toFixed(1))}>
        <div className="winrate-fill" style={{ width: `${rate}%` }} />
      </div>
    </section>
  );
}

/** A signed-in player's stats from the archive: every game this account played, on any device. */
function AccountStats({ token }: { token: string }) {
  const own = useArchive(ARCHIVE_API.me, ownProfileSchema, token);
  if (own.state === 'loading') return <Spinner label="Loading your games..." />;
  if (own.state !== 'ready') return <p className="empty">Your games could not be loaded right now.</p>;
  const { record, recent, username } = own.data;
  const counted = record.wins + record.losses + record.draws;
  return (
    <>
      <Tiles total={counted} wins={record.wins} losses={record.losses} draws={record.draws} />
      <WinRate rate={counted ? (record.wins / counted) * 100 : 0} />
      <section className="card" data-testid="account-history">
        <div className="row space-between">
          <h2>Game History</h2>
          {username && <Link to={`/@/${username}`}>Your profile</Link>}
        </div>
        <GameRows games={recent} />
      </section>
    </>
  );
}

export default function Stats() {
  const token = useSelector(getIdentity(), (s) => (s.context.user ? s.context.accessToken : null));
  const head = (
    <div className="screen-head">
      <Link to="/chess" className="back-link">← Back</Link>
      <h1>Your Chess Stats</h1>
    </div>
  );
  if (token) return <Page>{head}<AccountStats token={token} /></Page>;
  return <Page>{head}<DeviceStats /></Page>;
}

/** A guest's stats: the games played on this device. */
function DeviceStats() {
  const stats = summarize(useHistory());
  return (
    <>
      <Tiles total={stats.totalGames} wins={stats.wins} losses={stats.losses} draws={stats.draws} />
      <WinRate rate={stats.winRate} />
      <section className="card">
        <div className="row space-between">
          <h2>Game History</h2>
          <button type="button" className="btn btn-danger" disabled={stats.totalGames === 0}
            onClick={() => { if (window.confirm(CLEAR_CONFIRMATION)) clearHistory(); }}>Clear History</button>
        </div>
        {stats.totalGames === 0 ? (
          <p className="empty">No games played yet. Start playing to build your history!</p>
        ) : (
          <div className="table-wrap">
            <table className="history">
              <thead><tr><th scope="col">Date</th><th scope="col">Result</th><th scope="col">Color</th><th scope="col">Outcome</th></tr></thead>
              <tbody>
                {stats.gameHistory.map((g) => (
                  <tr key={g.id} className={`row-${g.result}`}>
                    <td>{new Date(g.date).toLocaleDateString(undefined, { dateStyle: 'short' })}</td>
                    <td>{RESULT_LABEL[g.result]}</td>
                    <td>{g.playerColor === 'white' ? 'White' : 'Black'}</td>
                    <td>{g.id.startsWith('game_') ? <Link to={`/game/${g.id}`}>{reasonLabel(g.reason)}</Link> : reasonLabel(g.reason)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

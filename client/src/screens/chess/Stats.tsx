/** Your Chess Stats (docs/product.md, Screens). */
import { Link } from 'react-router-dom';
import { Page } from '../../components/Page';
import { clearHistory, useHistory } from '../../app/history';
import { formatWinRate, reasonLabel, summarize } from '../../../../machines/client/outcome';

export const CLEAR_CONFIRMATION = 'Are you sure you want to clear your entire game history? This action cannot be undone.';
const RESULT_LABEL = { win: 'Win', loss: 'Loss', draw: 'Draw' } as const;

export default function Stats() {
  const stats = summarize(useHistory());
  return (
    <Page>
      <div className="screen-head">
        <Link to="/chess" className="back-link">← Back</Link>
        <h1>Your Chess Stats</h1>
      </div>
      <div className="tiles">
        <div className="tile"><span className="tile-value" data-testid="stat-total">{stats.totalGames}</span><span>Total Games</span></div>
        <div className="tile tile-win"><span className="tile-value" data-testid="stat-wins">{stats.wins}</span><span>Wins</span></div>
        <div className="tile tile-loss"><span className="tile-value" data-testid="stat-losses">{stats.losses}</span><span>Losses</span></div>
        <div className="tile tile-draw"><span className="tile-value" data-testid="stat-draws">{stats.draws}</span><span>Draws</span></div>
      </div>
      <section className="card">
        <div className="winrate-head"><span>Win Rate</span><strong data-testid="win-rate">{formatWinRate(stats.winRate)}</strong></div>
        <div className="winrate-bar" role="progressbar" aria-label="Win rate" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Number(stats.winRate.toFixed(1))}>
          <div className="winrate-fill" style={{ width: `${stats.winRate}%` }} />
        </div>
      </section>
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
                    <td>{reasonLabel(g.reason)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Page>
  );
}

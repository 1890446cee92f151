/** The top established ratings, one tab per speed (docs/archive.md); `?speed=` picks the tab, Rapid without one. */
import { Link, useSearchParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { useArchive } from '../../app/archiveApi';
import { ARCHIVE_API, leaderboardSchema } from '../../../../machines/protocol/archive';
import { SPEEDS, SPEED_NAMES, type Speed } from '../../../../machines/game/timeControl';

/** The tab shown without `?speed=`: Rapid, the speed of the default 10+0 pool (the server's default too). */
const DEFAULT_TAB: Speed = 'rapid';

function speedParam(text: string | null): Speed {
  return SPEEDS.find((s) => s === text) ?? DEFAULT_TAB;
}

export default function Leaderboard() {
  const [params] = useSearchParams();
  const speed = speedParam(params.get('speed'));
  const board = useArchive(ARCHIVE_API.leaderboard(speed), leaderboardSchema);
  return (
    <Page>
      <div className="screen-head">
        <Link to="/chess" className="back-link">← Back</Link>
        <h1>Leaderboard</h1>
      </div>
      <nav className="speed-tabs" role="tablist" aria-label="Speed">
        {SPEEDS.map((s) => (
          <Link key={s} to={`/leaderboard?speed=${s}`} role="tab" aria-selected={s === speed} data-testid={`leaderboard-tab-${s}`}
            className={`btn btn-small${s === speed ? ' btn-selected' : ''}`}>{SPEED_NAMES[s]}</Link>
        ))}
      </nav>
      <section className="card" role="tabpanel" aria-label={`${SPEED_NAMES[speed]} leaderboard`}>
        {board.state === 'loading' && <Spinner label="Loading leaderboard..." />}
        {(board.state === 'missing' || board.state === 'failed') && <p className="empty">The leaderboard is unavailable right now.</p>}
        {board.state === 'ready' && board.data.length === 0 && (
          <p className="empty" data-testid="leaderboard-empty">
            No established ratings yet in {SPEED_NAMES[speed]}: a rating is listed once many rated games of its speed against different players have settled it.
          </p>
        )}
        {board.state === 'ready' && board.data.length > 0 && (
          <div className="table-wrap">
            <table className="history" data-testid="leaderboard">
              <thead><tr><th scope="col">#</th><th scope="col">Player</th><th scope="col">{SPEED_NAMES[speed]} rating</th><th scope="col">Games</th></tr></thead>
              <tbody>
                {board.data.map((e, i) => (
                  <tr key={e.username}>
                    <td>{i + 1}</td>
                    <td><Link to={`/@/${e.username}`}>{e.username}</Link></td>
                    <td>{Math.round(e.rating)}</td>
                    <td>{e.games}</td>
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

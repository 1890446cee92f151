/** The top established ratings of the 10-minute pool (docs/archive.md). */
import { Link } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { useArchive } from '../../app/archiveApi';
import { ARCHIVE_API, leaderboardSchema } from '../../../../machines/protocol/archive';

export default function Leaderboard() {
  const board = useArchive(ARCHIVE_API.leaderboard, leaderboardSchema);
  return (
    <Page>
      <div className="screen-head">
        <Link to="/chess" className="back-link">← Back</Link>
        <h1>Leaderboard</h1>
      </div>
      <section className="card">
        {board.state === 'loading' && <Spinner label="Loading leaderboard..." />}
        {(board.state === 'missing' || board.state === 'failed') && <p className="empty">The leaderboard is unavailable right now.</p>}
        {board.state === 'ready' && board.data.length === 0 && (
          <p className="empty">No established ratings yet: a rating is established after about twenty rated games.</p>
        )}
        {board.state === 'ready' && board.data.length > 0 && (
          <div className="table-wrap">
            <table className="history" data-testid="leaderboard">
              <thead><tr><th scope="col">#</th><th scope="col">Player</th><th scope="col">Rating</th><th scope="col">Games</th></tr></thead>
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

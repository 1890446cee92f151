/** A player's public profile: rating and its history, record, recent games (docs/archive.md). */
import { Link, useParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { RatingChart } from '../../components/RatingChart';
import { useArchive } from '../../app/archiveApi';
import { ARCHIVE_API, profileSchema } from '../../../../machines/protocol/archive';
import { GameRows } from './gameRows';
import { ratingText } from '../../../../machines/client/ratingText';

export default function Profile() {
  const { username = '' } = useParams();
  const profile = useArchive(ARCHIVE_API.profile(username), profileSchema);
  if (profile.state === 'loading') return <Page><Spinner label="Loading profile..." /></Page>;
  if (profile.state === 'missing') return <Page><h1>No such player</h1><p>There is no player called {username}.</p><Link to="/leaderboard">Leaderboard</Link></Page>;
  if (profile.state === 'failed') return <Page><h1>Profile unavailable</h1><p>{profile.message}</p></Page>;
  const { data: p } = profile;
  const rating = p.rating ? ratingText(p.rating) : 'Unrated';
  return (
    <Page>
      <div className="screen-head">
        <Link to="/leaderboard" className="back-link">← Leaderboard</Link>
        <h1 data-testid="profile-name">{p.username}</h1>
      </div>
      <section className="card">
        <div className="row space-between">
          <h2>Rating · 10 minutes</h2>
          <strong className="rating-now" data-testid="profile-rating"
            title={p.rating?.provisional ? 'Provisional: fewer games than an established rating needs' : undefined}>{rating}</strong>
        </div>
        <RatingChart history={p.history} />
      </section>
      <div className="tiles">
        <div className="tile"><span className="tile-value" data-testid="profile-games">{p.record.games}</span><span>Games</span></div>
        <div className="tile tile-win"><span className="tile-value" data-testid="profile-wins">{p.record.wins}</span><span>Wins</span></div>
        <div className="tile tile-loss"><span className="tile-value" data-testid="profile-losses">{p.record.losses}</span><span>Losses</span></div>
        <div className="tile tile-draw"><span className="tile-value" data-testid="profile-draws">{p.record.draws}</span><span>Draws</span></div>
      </div>
      <section className="card">
        <h2>Recent games</h2>
        <GameRows games={p.recent} />
      </section>
    </Page>
  );
}

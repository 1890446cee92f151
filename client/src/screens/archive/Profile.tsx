/** A player's public profile: a rating and its history per speed played, record, recent games (docs/archive.md). */
import { Link, useParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { RatingChart } from '../../components/RatingChart';
import { useArchive } from '../../app/archiveApi';
import { ARCHIVE_API, profileSchema, type SpeedRating } from '../../../../machines/protocol/archive';
import { SPEED_NAMES } from '../../../../machines/game/timeControl';
import { GameRows } from './gameRows';
import { ChallengeButton } from '../challenge/ChallengeButton';
import { ratingText } from '../../../../machines/client/ratingText';

/** One speed's rating, as lichess shows each rating of a profile: the number, its games and its chart. */
function SpeedRatingCard({ rating: r }: { rating: SpeedRating }) {
  const name = SPEED_NAMES[r.speed];
  return (
    <section className="card" data-testid={`profile-speed-${r.speed}`}>
      <div className="row space-between">
        <h2>{name} <span className="speed-games">· {r.games} rated {r.games === 1 ? 'game' : 'games'}</span></h2>
        <strong className="rating-now" data-testid={`profile-rating-${r.speed}`}
          title={r.provisional ? 'Provisional: fewer games than an established rating needs' : undefined}>{ratingText(r)}</strong>
      </div>
      <RatingChart history={r.history} label={`${name} rating history`} />
    </section>
  );
}

export default function Profile() {
  const { username = '' } = useParams();
  const profile = useArchive(ARCHIVE_API.profile(username), profileSchema);
  if (profile.state === 'loading') return <Page><Spinner label="Loading profile..." /></Page>;
  if (profile.state === 'missing') return <Page><h1>No such player</h1><p>There is no player called {username}.</p><Link to="/leaderboard">Leaderboard</Link></Page>;
  if (profile.state === 'failed') return <Page><h1>Profile unavailable</h1><p>{profile.message}</p></Page>;
  const { data: p } = profile;
  return (
    <Page>
      <div className="screen-head">
        <Link to="/leaderboard" className="back-link">← Leaderboard</Link>
        <h1 data-testid="profile-name">{p.username}</h1>
      </div>
      <ChallengeButton username={p.username} />
      {p.ratings.length === 0 && (
        <section className="card">
          <div className="row space-between"><h2>Rating</h2><strong className="rating-now" data-testid="profile-unrated">Unrated</strong></div>
        </section>
      )}
      {p.ratings.map((r) => <SpeedRatingCard key={r.speed} rating={r} />)}
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

/**
 * /games: the site's live games (docs/product.md, "Watching"), the best-rated first, each with
 * its players, ratings, time control, move count, spectators and a small board, kept up to date
 * as they are played; a game opens its page, /game/:id.
 */
import { Link } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Board } from '../../components/Board';
import { Spinner } from '../../components/Spinner';
import { useLiveGames } from '../../app/liveGames';
import type { LiveGameSummary } from '../../../../machines/protocol/messages';
import { timeControlName } from '../../../../machines/game/timeControl';
import { ratingText } from '../../../../machines/client/ratingText';
import { shownPlayerName } from '../../../../machines/client/playerName';

const noMove = () => undefined;

function Player({ player }: { player: LiveGameSummary['white'] }) {
  return (
    <span className="listed-player">
      {shownPlayerName(player.name, player.guest)}
      {player.rating && <span className="replay-rating"> {ratingText(player.rating)}</span>}
    </span>
  );
}

function LiveGameCard({ game }: { game: LiveGameSummary }) {
  const last = game.lastMove ? ([game.lastMove.slice(0, 2), game.lastMove.slice(2, 4)] as [string, string]) : null;
  return (
    <li className="live-card card" data-testid="live-game-row" data-game-id={game.gameId}>
      <Link to={`/game/${game.gameId}`} className="live-card-link" aria-label={`Watch ${game.white.name} against ${game.black.name}`}>
        <div className="live-card-board">
          <Board fen={game.fen} orientation="white" movableColor={null} lastMove={last} version={game.moves} onMove={noMove}
            label={`${game.white.name} against ${game.black.name}, after ${game.moves} moves`} />
        </div>
        <div className="live-card-text">
          <Player player={game.black} />
          <Player player={game.white} />
          <span className="live-card-meta">
            {timeControlName(game.timeControl)} · <span data-testid="live-moves">{game.moves === 1 ? '1 move' : `${game.moves} moves`}</span>
            {game.spectators > 0 && <> · {game.spectators === 1 ? '1 spectator' : `${game.spectators} spectators`}</>}
          </span>
        </div>
      </Link>
    </li>
  );
}

export default function LiveGames() {
  const games = useLiveGames();
  return (
    <Page>
      <div className="screen-head">
        <h1>Live games</h1>
        <Link to="/tv" className="btn btn-small">Watch TV</Link>
      </div>
      {games === null ? (
        <Spinner label="Loading games..." />
      ) : games.length === 0 ? (
        <p className="info" data-testid="no-live-games">Nobody is playing right now.</p>
      ) : (
        <ul className="live-cards" aria-label="Games being played">
          {games.map((g) => <LiveGameCard key={g.gameId} game={g} />)}
        </ul>
      )}
    </Page>
  );
}

/** A table of archived games, each linking to its page. */
import { Link } from 'react-router-dom';
import type { GameSummary, PublicPlayer } from '../../../../machines/protocol/archive';
import { reasonLabel } from '../../../../machines/client/outcome';
import { shownPlayerName } from '../../../../machines/client/playerName';
import { resultScore } from '../../../../machines/game/display';
import { SPEED_NAMES, speedOf, timeControlOf, timeControlText } from '../../../../machines/game/timeControl';

function PlayerName({ p }: { p: PublicPlayer }) {
  return p.username ? <Link to={`/@/${p.username}`}>{p.name}</Link> : <span>{shownPlayerName(p.name, p.guest)}</span>;
}

/**
 * "3+2 Blitz · Rated · 31 moves": the time control and the speed whose rating the game counted
 * toward (the archive's; games rated before speeds count toward Rapid), then rated or casual
 * and its length. A game without a clock (against the AI) has no time control to show.
 */
function gameText(g: GameSummary): string {
  const tc = timeControlOf(g);
  const clock = g.clockMs > 0 ? `${timeControlText(tc)} ${SPEED_NAMES[g.speed ?? speedOf(tc)]} · ` : '';
  return `${clock}${g.rated ? 'Rated' : 'Casual'} · ${Math.ceil(g.plies / 2)} moves`;
}

export function GameRows({ games }: { games: readonly GameSummary[] }) {
  if (games.length === 0) return <p className="empty">No games yet.</p>;
  return (
    <div className="table-wrap">
      <table className="history games-table">
        <thead><tr><th scope="col">Date</th><th scope="col">White</th><th scope="col">Black</th><th scope="col">Result</th><th scope="col">Game</th></tr></thead>
        <tbody>
          {games.map((g) => (
            <tr key={g.id}>
              <td data-label="Date">{new Date(g.endedAt).toLocaleDateString(undefined, { dateStyle: 'short' })}</td>
              <td data-label="White"><PlayerName p={g.white} /></td>
              <td data-label="Black"><PlayerName p={g.black} /></td>
              <td data-label="Result">{g.reason === 'aborted' ? 'Aborted' : `${resultScore(g.winner)} (${reasonLabel(g.reason)})`}</td>
              <td data-label="Game"><Link to={`/game/${g.id}`}>{gameText(g)}</Link></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

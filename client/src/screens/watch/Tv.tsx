/**
 * /tv: the site's best live game, watched as on its page (docs/product.md, "Watching"); when it
 * ends, its result stays for a moment and TV moves on to the best game still being played, as
 * lichess TV does.
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { useLiveGames } from '../../app/liveGames';
import { LiveGame, useWatchedGame } from '../archive/LiveGame';
import { TV_RESULT_PAUSE_MS, tvGame } from '../../../../machines/client/tv';

/** One game on TV; `onOver` once it is over (after the pause on its result) or is no longer live. */
function OnTv({ gameId, onOver }: { gameId: string; onOver: () => void }) {
  const watch = useWatchedGame(gameId);
  const over = watch.state === 'notLive' || (watch.state === 'live' && watch.game.game.result !== null);
  const done = useRef(onOver);
  done.current = onOver;
  useEffect(() => {
    if (!over) return;
    const pause = setTimeout(() => done.current(), watch.state === 'notLive' ? 0 : TV_RESULT_PAUSE_MS);
    return () => clearTimeout(pause);
  }, [over, watch.state]);
  if (watch.state !== 'live') return <Spinner label="Loading game..." />;
  return (
    <>
      <LiveGame game={watch.game} share={false} />
      <p className="tv-link"><Link to={`/game/${gameId}`} data-testid="tv-game-link">Open this game's page</Link></p>
    </>
  );
}

export default function Tv() {
  const games = useLiveGames();
  const [ended, setEnded] = useState<ReadonlySet<string>>(new Set());
  const [current, setCurrent] = useState<string | null>(null);
  const next = games ? tvGame(games, current, ended) : null;
  useEffect(() => {
    if (next !== current) setCurrent(next);
  }, [next, current]);
  return (
    <Page>
      <div className="screen-head">
        <h1>Chess TV</h1>
        <Link to="/games" className="btn btn-small">All live games</Link>
      </div>
      {games === null ? (
        <Spinner label="Loading games..." />
      ) : current === null ? (
        <p className="info" data-testid="tv-idle">Nobody is playing right now. TV shows the best game as soon as one starts.</p>
      ) : (
        <div data-testid="tv" data-game-id={current}>
          <OnTv key={current} gameId={current} onOver={() => setEnded((e) => new Set(e).add(current))} />
        </div>
      )}
    </Page>
  );
}

/**
 * /game/:id of a game being played: the spectator's view (docs/protocol.md, "Spectators").
 * Read-only board, both players' names and ratings, both clocks counting down between the
 * server's readings, the move list growing (look back with the arrows or a click); at the end
 * the result, and the archived replay once the server says the record is stored.
 */
import { useEffect, useMemo, useState } from 'react';
import { Board } from '../../components/Board';
import { ClockFace } from '../../components/ClockFace';
import { MoveList, useMoveKeys } from '../../components/MoveList';
import { getConnection, onMessage, trySend } from '../../app/services';
import { START_FEN } from '../../../../machines/chess/index';
import type { Color, ServerMessage } from '../../../../machines/protocol/messages';
import { followWatched, watchedGame, type WatchedGame, type WatchedPlayer } from '../../../../machines/client/spectator';
import { resultLine } from '../../../../machines/client/outcome';
import { ratingText } from '../../../../machines/client/ratingText';

/** How long the page waits for the server's answer (the socket may still be connecting) before it shows the archive. */
const ANSWER_WAIT_MS = 5_000;
const now = () => performance.now();
const noMove = () => undefined;

export type Watch = { state: 'asking' } | { state: 'live'; game: WatchedGame } | { state: 'notLive' };

/**
 * Asks the server to watch game `id` (again after every reconnect, and when a frame was
 * missed) and follows it: 'live' while the server has it as a live game (and after its end),
 * 'notLive' when the server says it is not, or does not answer in time.
 */
export function useWatchedGame(id: string): Watch {
  const [watch, setWatch] = useState<Watch>({ state: 'asking' });
  useEffect(() => {
    let game: WatchedGame | null = null;
    let resyncing = false;
    setWatch({ state: 'asking' });
    const ask = () => trySend({ type: 'watchGame', payload: { gameId: id } });
    const show = (next: WatchedGame) => {
      game = next;
      setWatch({ state: 'live', game: next });
      if (next.stale && !resyncing) resyncing = ask();
    };
    const follow = (msg: ServerMessage) => {
      const next = game && followWatched(game, msg, now());
      if (next && next !== game) show(next);
    };
    const notLive = () => {
      game = null;
      setWatch({ state: 'notLive' });
    };
    const offs = [
      onMessage('watchStart', (m) => {
        if (m.gameId !== id) return;
        resyncing = false;
        show(watchedGame(m, now()));
      }),
      onMessage('gameMove', follow),
      onMessage('timerUpdate', follow),
      onMessage('gameEnd', follow),
      onMessage('gameArchived', follow),
      // not live (any more): the archive has it, or will
      onMessage('error', (m) => {
        if (m.gameId === id && m.code === 'unknown_game' && !game?.end) notLive();
      }),
    ];
    const opened = getConnection().on('opened', ask);
    ask();
    const wait = setTimeout(() => {
      if (!game) notLive();
    }, ANSWER_WAIT_MS);
    return () => {
      for (const off of offs) off();
      opened.unsubscribe();
      clearTimeout(wait);
      if (game && !game.archived) trySend({ type: 'unwatchGame', payload: { gameId: id } });
    };
  }, [id]);
  return watch;
}

function LivePlayer({ player, color, game }: { player: WatchedPlayer; color: Color; game: WatchedGame }) {
  const toMove = !game.end && game.turn === color;
  return (
    <div className={`replay-player ${toMove ? 'to-move' : ''}`} data-testid={`live-${color}`}>
      <span className="replay-name">
        <span data-testid={`live-name-${color}`}>{player.name}</span>
        {player.rating && <span className="replay-rating" data-testid={`live-rating-${color}`}> {ratingText(player.rating)}</span>}
      </span>
      <ClockFace color={color} clock={game.clock} now={now} active={toMove} />
    </div>
  );
}

export function LiveGame({ game }: { game: WatchedGame }) {
  const [orientation, setOrientation] = useState<Color>('white');
  // the ply looked at (-1: the start), or null to follow the game
  const [viewPly, setViewPly] = useState<number | null>(null);
  const sans = useMemo(() => game.plies.map((p) => p.san), [game.plies]);
  useMoveKeys(sans.length, viewPly, setViewPly);
  const shownPlies = viewPly === null ? game.plies.length : viewPly + 1;
  const shown = game.plies[shownPlies - 1];
  const fen = viewPly === null ? game.fen : (shown?.fen ?? START_FEN);
  const top: Color = orientation === 'white' ? 'black' : 'white';
  const status = game.end ? resultLine(game.end.winner, game.end.reason) : `Live · ${game.turn === 'white' ? 'White' : 'Black'} to move`;
  return (
    <div className="replay" data-testid="live-game">
      <div className="board-column">
        <LivePlayer player={game[top]} color={top} game={game} />
        <Board fen={fen} orientation={orientation} movableColor={null} lastMove={shown ? [shown.from, shown.to] : null} version={shownPlies}
          onMove={noMove} label={`Live game, position after ${shownPlies === 0 ? 'no moves' : `move ${Math.ceil(shownPlies / 2)}${shownPlies % 2 ? '' : '...'} ${shown?.san ?? ''}`}`} />
        <LivePlayer player={game[top === 'white' ? 'black' : 'white']} color={top === 'white' ? 'black' : 'white'} game={game} />
      </div>
      <aside className="replay-side card">
        <p className="replay-result" data-testid="live-status">{status}</p>
        <MoveList sans={sans} viewPly={viewPly} onView={setViewPly} />
        <div className="replay-tools">
          <button type="button" className="btn" onClick={() => setOrientation(orientation === 'white' ? 'black' : 'white')}>Flip board</button>
        </div>
      </aside>
    </div>
  );
}

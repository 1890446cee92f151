/**
 * /game/:id of a game being played: the spectator's view (docs/protocol.md, "Spectators").
 * Read-only board, both players' names and ratings, both clocks counting down between the
 * server's readings, the move list growing (look back with the arrows or a click), the spectator
 * room's chat (the players do not see it while they play); at the end
 * the result, and the archived replay once the server says the record is stored.
 */
import { useEffect, useState } from 'react';
import { Board } from '../../components/Board';
import { ClockFace } from '../../components/ClockFace';
import { MoveList, useMoveKeys } from '../../components/MoveList';
import { GameChat } from '../../components/GameChat';
import { ShareButton } from '../../components/ShareButton';
import { SpectatorCount } from '../../components/SpectatorCount';
import { getConnection, onMessage, trySend } from '../../app/services';
import { useViewedPosition } from '../chess/playHooks';
import type { ClockState } from '../../../../machines/client/clock';
import type { Color, ServerMessage } from '../../../../machines/protocol/messages';
import { viewOf, type GameView } from '../../../../machines/client/gameMirror';
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
        show({ ...watchedGame(m, now()), spectators: game?.spectators ?? null });
      }),
      onMessage('gameMove', follow),
      onMessage('timerUpdate', follow),
      onMessage('gameEnd', follow),
      onMessage('gameArchived', follow),
      onMessage('takeback', follow),
      onMessage('chatMessage', follow),
      onMessage('spectators', follow),
      // not live (any more): the archive has it, or will
      onMessage('error', (m) => {
        if (m.gameId === id && m.code === 'unknown_game' && !game?.game.result) notLive();
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

function LivePlayer({ player, color, view }: { player: WatchedPlayer; color: Color; view: GameView }) {
  const toMove = !view.result && view.turn === color;
  const clock: ClockState = { clocks: view.clocks, syncedAt: view.clockSyncedAt, running: view.clockRunning };
  return (
    <div className={`replay-player ${toMove ? 'to-move' : ''}`} data-testid={`live-${color}`}>
      <span className="replay-name">
        <span data-testid={`live-name-${color}`}>{player.name}</span>
        {player.rating && <span className="replay-rating" data-testid={`live-rating-${color}`}> {ratingText(player.rating)}</span>}
      </span>
      <ClockFace color={color} clock={clock} now={now} active={view.clockRunning === color} />
    </div>
  );
}

/** `share`: a Share button copying the page's address (the game's page has one; TV's address is TV's). */
export function LiveGame({ game, share = true }: { game: WatchedGame; share?: boolean }) {
  const [orientation, setOrientation] = useState<Color>('white');
  const view = viewOf(game.game);
  const shown = useViewedPosition(view.moves, view.fen, view.lastMove);
  useMoveKeys(shown.plies.length, shown.viewPly, shown.setViewPly);
  const shownPlies = shown.viewPly === null ? shown.plies.length : shown.viewPly + 1;
  const san = shown.plies[shownPlies - 1]?.san ?? '';
  const top: Color = orientation === 'white' ? 'black' : 'white';
  const status = view.result ? resultLine(view.result.winner, view.result.reason) : `Live · ${view.turn === 'white' ? 'White' : 'Black'} to move`;
  return (
    <div className="replay" data-testid="live-game">
      <div className="board-column">
        <LivePlayer player={game[top]} color={top} view={view} />
        <Board fen={shown.fen} orientation={orientation} movableColor={null} lastMove={shown.lastMove} version={shownPlies}
          onMove={noMove} label={`Live game, position after ${shownPlies === 0 ? 'no moves' : `move ${Math.ceil(shownPlies / 2)}${shownPlies % 2 ? '' : '...'} ${san}`}`} />
        <LivePlayer player={game[top === 'white' ? 'black' : 'white']} color={top === 'white' ? 'black' : 'white'} view={view} />
      </div>
      <aside className="replay-side card">
        <p className="replay-result" data-testid="live-status">{status}</p>
        <SpectatorCount count={game.spectators} />
        <MoveList sans={shown.sans} viewPly={shown.viewPly} onView={shown.setViewPly} />
        <div className="replay-tools">
          <button type="button" className="btn" onClick={() => setOrientation(orientation === 'white' ? 'black' : 'white')}>Flip board</button>
          {share && <ShareButton />}
        </div>
        <GameChat gameId={game.gameId} room="spectator" lines={game.chat} closed={view.result ? 'The game is over.' : null} />
      </aside>
    </div>
  );
}

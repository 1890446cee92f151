/**
 * Local Play (docs/product.md, Local Play): two people at one device, lichess's over-the-board
 * mode. The setup (time control, auto-flip) and this device's local games, then one board that
 * turns to the side to move, both clocks and the online game's rules and end dialog. The game
 * runs in the page (machines/client/localGame.ts): nothing is sent to the server.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { Board } from '../../components/Board';
import { ClockFace } from '../../components/ClockFace';
import { Countdown } from '../../components/Countdown';
import { KeyboardMove } from '../../components/KeyboardMove';
import { GameEndModal } from '../../components/GameEndModal';
import { GameTools, MuteToggle } from '../../components/GameTools';
import { MoveList, useMoveKeys } from '../../components/MoveList';
import { PlayLayout, PlayerBar } from '../../components/PlayLayout';
import { PoolGrid } from '../../components/PoolGrid';
import { PromotionDialog } from '../../components/PromotionDialog';
import { ResignButton } from '../../components/ResignButton';
import { StatusBanner } from '../../components/StatusBanner';
import { getInspect } from '../../app/inspector';
import { addLocalGame, useLocalGames } from '../../app/history';
import { storage } from '../../app/storage';
import { playSound } from '../../app/sounds';
import { useAnnouncements, useFocusAtStart, useGameSounds, usePromotionChoice, useViewedPosition } from './playHooks';
import { LOCAL_SEATS, localGameMachine, localOrientation, readLocalPlaySettings } from '../../../../machines/client/localGame';
import { viewOf } from '../../../../machines/client/gameMirror';
import { statusText, type TypedMove } from '../../../../machines/client/engine';
import { reasonLabel } from '../../../../machines/client/outcome';
import { STORAGE_KEYS } from '../../../../machines/client/storage';
import { opposite, resultScore } from '../../../../machines/game/display';
import { gamePgn } from '../../../../machines/game/step';
import { timeControlName, timeControlText, type TimeControl } from '../../../../machines/game/timeControl';
import { UNTIMED_PLIES } from '../../../../machines/game/defaults';
import type { GameResult } from '../../../../machines/game/types';
import type { Color, Winner } from '../../../../machines/protocol/messages';

const now = () => performance.now();
const newId = () => `local_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const sideName = (c: Color) => LOCAL_SEATS[c].name;

/** The end dialog's title: who won, as both players are at the board. */
function endTitle(winner: Winner, reason: string): string {
  if (reason === 'aborted') return 'Game Aborted';
  return winner === 'draw' ? 'Draw!' : `${sideName(winner)} Wins!`;
}

/** The status line: whose turn it is ("Check! Black's turn."), or the result once the game is over. */
function localStatus(fen: string, result: GameResult | null): string {
  if (result === null) return statusText(fen);
  if (result.reason === 'aborted') return 'Game aborted';
  // the board says it all: "Checkmate! Black wins." / "Stalemate! Game is a draw."
  if (result.reason === 'checkmate' || result.reason === 'stalemate') return statusText(fen, result.winner === 'draw');
  return `Game over: ${endTitle(result.winner, result.reason)} (${reasonLabel(result.reason)})`;
}

export default function LocalGame() {
  const navigate = useNavigate();
  const local = useActorRef(localGameMachine, {
    input: { now, newId, ...readLocalPlaySettings(storage.readJson<unknown>(STORAGE_KEYS.localPlaySettings, null)) },
    inspect: getInspect(),
  });
  const snap = useSelector(local, (s) => s);
  const [flipped, setFlipped] = useState(false);
  const [askingResign, setAskingResign] = useState(false);
  const [endClosed, setEndClosed] = useState(false);

  useEffect(() => {
    const sub = local.on('finished', (e) => addLocalGame(e.result));
    return () => sub.unsubscribe();
  }, [local]);

  const ctx = snap.context;
  const { timeControl, autoFlip } = ctx;
  useEffect(() => {
    storage.writeJson(STORAGE_KEYS.localPlaySettings, { timeControl, autoFlip });
  }, [timeControl, autoFlip]);

  const game = ctx.game;
  const gameId = game?.gameId ?? null;
  const playing = snap.matches('playing');
  const over = snap.matches('over');
  const shown = viewOf(game);
  const view = useViewedPosition(shown.moves, shown.fen, shown.lastMove);
  useMoveKeys(view.plies.length, view.viewPly, view.setViewPly);
  useGameSounds(gameId, view.plies, over);
  const orientation = localOrientation(game, autoFlip, flipped);
  const result = shown.result;
  const status = localStatus(shown.fen, result);
  // both players are at the board: every move is announced (the side to move never made the last one)
  const lowTime = useCallback(() => playSound('lowtime'), []);
  const { announcements } = useAnnouncements(view.plies, game?.turn ?? 'white', over ? status : null);
  useFocusAtStart(gameId);

  // a new game: no question pending, its end dialog not yet closed
  useEffect(() => {
    setAskingResign(false);
    setEndClosed(false);
  }, [gameId]);

  const move = (m: TypedMove) =>
    local.send({ type: 'MOVE', move: m.promotion ? { from: m.from, to: m.to, promotion: m.promotion } : { from: m.from, to: m.to } });
  const promotion = usePromotionChoice(shown.fen, move);
  const autoFlipField = (
    <label className="setting">
      <input type="checkbox" checked={autoFlip} onChange={(e) => local.send({ type: 'SET_AUTO_FLIP', on: e.target.checked })} />
      <span><strong>Flip the board after each move</strong><span className="hint">It turns to whoever is to move.</span></span>
    </label>
  );

  if (!game || snap.matches('setup')) {
    return (
      <Page>
        <div className="screen-head">
          <Link to="/chess" className="back-link">← Back</Link>
          <h1>Local Play</h1>
        </div>
        <section className="card panel" aria-label="Game Settings">
          <p>Two players, one device: a {timeControlName(timeControl)} game on one board.</p>
          <PoolGrid selected={timeControl} onPick={(tc: TimeControl) => local.send({ type: 'SET_TIME_CONTROL', timeControl: tc })} disabled={false} />
          {autoFlipField}
          <button type="button" className="btn btn-primary" onClick={() => local.send({ type: 'START' })}>Start Game</button>
        </section>
        <LocalGames />
      </Page>
    );
  }

  const clock = { clocks: shown.clocks, syncedAt: shown.clockSyncedAt, running: shown.clockRunning };
  const bar = (c: Color, testId: string) => (
    <PlayerBar testId={testId} name={sideName(c)} detail={c === game.turn && playing ? 'To move' : undefined}
      clock={<ClockFace color={c} clock={clock} now={now} active={clock.running === c} onLow={lowTime} />} />
  );
  const canAbort = playing && game.moves.length < UNTIMED_PLIES;
  const endButtons = (
    <>
      <button type="button" className="btn btn-primary" onClick={() => local.send({ type: 'REMATCH' })}>Rematch</button>
      <button type="button" className="btn" onClick={() => local.send({ type: 'NEW_GAME' })}>New Game</button>
      <button type="button" className="btn btn-secondary" onClick={() => navigate('/')}>Main Menu</button>
    </>
  );
  const endShown = over && result !== null && !endClosed;

  return (
    <Page play>
      <PlayLayout
        title={`Local game, ${timeControlText(timeControl)}`}
        announcements={announcements}
        top={bar(opposite(orientation), 'top-player')}
        bottom={bar(orientation, 'bottom-player')}
        board={
          <Board
            fen={view.fen}
            orientation={orientation}
            movableColor={playing && view.viewPly === null ? game.turn : null}
            lastMove={view.lastMove}
            version={promotion.redraw}
            onMove={promotion.onBoardMove}
            label={`Chess board, ${sideName(game.turn)} to move`}
          />
        }
        actions={
          <div className="row">
            {canAbort && <button type="button" className="btn" onClick={() => local.send({ type: 'RESIGN' })}>Abort</button>}
            {playing && !canAbort && (
              <>
                {!askingResign && <button type="button" className="btn" onClick={() => local.send({ type: 'DRAW' })}>Draw</button>}
                <ResignButton asking={askingResign} onAsk={setAskingResign} onResign={() => local.send({ type: 'RESIGN' })} />
              </>
            )}
            {over && !endShown && endButtons}
            <button type="button" className="btn" onClick={() => setFlipped((f) => !f)}>Flip</button>
            <MuteToggle />
          </div>
        }
        info={
          <>
            <StatusBanner text={status} tone={over ? 'over' : game.turn === 'white' ? 'mine' : 'theirs'} />
            <div className="play-notice" role="status" aria-live="polite">
              {playing && shown.firstMoveDeadline !== null && (
                <p className="info" data-testid="first-move">
                  <Countdown until={shown.firstMoveDeadline} now={now}
                    render={(s) => `${sideName(game.turn)}: make your first move: ${s} s left, or the game is aborted.`} />
                </p>
              )}
            </div>
          </>
        }
        moves={
          <>
            <MoveList sans={view.sans} viewPly={view.viewPly} onView={view.setViewPly} />
            <KeyboardMove fen={shown.fen} enabled={playing && view.viewPly === null} onMove={move} />
            {autoFlipField}
            <GameTools
              fen={view.fen}
              onFlip={() => setFlipped((f) => !f)}
              pgnFileName={`chess-local-${new Date().toISOString().slice(0, 10)}.pgn`}
              pgn={() => gamePgn(game)}
            />
          </>
        }
      />

      {promotion.asking && <PromotionDialog color={game.turn} onChoose={promotion.choose} onCancel={promotion.cancel} />}

      {endShown && (
        <GameEndModal
          title={endTitle(result.winner, result.reason)}
          line={{ score: result.reason === 'aborted' ? 'Aborted: it does not count.' : resultScore(result.winner) }}
          reason={result.reason === 'aborted' ? null : reasonLabel(result.reason)}
          buttons={endButtons}
          onClose={() => setEndClosed(true)}
        />
      )}
    </Page>
  );
}

/** The local games played on this device, newest first. */
function LocalGames() {
  const games = useLocalGames();
  return (
    <section className="card" aria-label="Local games on this device">
      <h2>Local games on this device</h2>
      {games.length === 0 ? (
        <p className="empty">No local games yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="history" data-testid="local-games">
            <thead><tr><th scope="col">Date</th><th scope="col">Time control</th><th scope="col">Result</th><th scope="col">Reason</th><th scope="col">Moves</th></tr></thead>
            <tbody>
              {games.map((g) => (
                <tr key={g.id}>
                  <td>{new Date(g.date).toLocaleDateString(undefined, { dateStyle: 'short' })}</td>
                  <td>{timeControlText(g.timeControl)}</td>
                  <td>{g.reason === 'aborted' ? 'Aborted' : resultScore(g.winner)}</td>
                  <td>{reasonLabel(g.reason)}</td>
                  <td>{Math.ceil(g.plies / 2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

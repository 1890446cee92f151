/** Play Against AI (docs/product.md, Screens and The AI game): the settings, then the game (kept by the page-wide AI session). */
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { Board } from '../../components/Board';
import { KeyboardMove } from '../../components/KeyboardMove';
import { GameEndModal } from '../../components/GameEndModal';
import { GameTools, MuteToggle } from '../../components/GameTools';
import { Modal } from '../../components/Modal';
import { MoveList, useMoveKeys } from '../../components/MoveList';
import { PlayLayout, PlayerBar } from '../../components/PlayLayout';
import { PromotionDialog } from '../../components/PromotionDialog';
import { ResignButton } from '../../components/ResignButton';
import { ClockFace } from '../../components/ClockFace';
import { PoolGrid } from '../../components/PoolGrid';
import { StatusBanner } from '../../components/StatusBanner';
import { getConnection, getIdentity } from '../../app/services';
import { getAiSession } from './aiSession';
import { useAnnouncements, useFocusAtStart, useGameSounds, usePromotionChoice, useTurnTitle, useViewedPosition } from './playHooks';
import { AI_PRESETS, presetFor, type ColorChoice } from '../../../../machines/client/aiGame';
import type { TypedMove } from '../../../../machines/client/engine';
import { displayName } from '../../../../machines/client/identity';
import { pgnOf } from '../../../../machines/client/moveHistory';
import { playStatus } from '../../../../machines/client/playStatus';
import { aiReasonLabel, OUTCOME_TITLES } from '../../../../machines/client/outcome';
import { AI_DIFFICULTY, type Color } from '../../../../machines/protocol/messages';

const COLOR_CHOICES: { value: ColorChoice; label: string; sub: string }[] = [
  { value: 'white', label: 'White', sub: 'Goes First' },
  { value: 'black', label: 'Black', sub: 'Goes Second' },
  { value: 'random', label: 'Random', sub: 'Surprise!' },
];

const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

export default function AiGame() {
  const navigate = useNavigate();
  const ai = getAiSession();
  const s = useSelector(ai, (snap) => snap);
  const connected = useSelector(getConnection(), (snap) => snap.context.connected);
  const myName = useSelector(getIdentity(), (snap) => displayName(snap.context));
  const [flipped, setFlipped] = useState(false);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const [askingResign, setAskingResign] = useState(false);

  const ctx = s.context;
  useEffect(() => {
    if (!ctx.error?.startsWith('Invalid move:')) return;
    const t = setTimeout(() => ai.send({ type: 'CLEAR_NOTICE' }), 3000);
    return () => clearTimeout(t);
  }, [ai, ctx.error]);
  const inProgress = s.matches('playing') || s.matches('starting');
  const playing = s.matches('playing');
  const over = s.matches('over');
  const showBoard = playing || over;
  const myTurn = playing && ctx.turn === ctx.playerColor;
  const view = useViewedPosition(ctx.moves, ctx.fen, ctx.lastMove);
  useMoveKeys(view.plies.length, view.viewPly, view.setViewPly);
  useGameSounds(ctx.gameId ?? ctx.result, view.plies, over);
  useTurnTitle(myTurn && connected);
  useEffect(() => {
    setFlipped(false);
    setAskingResign(false);
  }, [ctx.gameId]);
  const status = ctx.error && playing
    ? { text: ctx.error, tone: 'check' as const }
    : playStatus({
      fen: ctx.fen, playerColor: ctx.playerColor, theirTurn: 'AI Thinking...',
      end: over && ctx.result ? { title: OUTCOME_TITLES[ctx.result.outcome], reasonLabel: aiReasonLabel(ctx.result.reason), aborted: false, draw: ctx.result.outcome === 'draw' } : null,
    });
  const { announcements } = useAnnouncements(view.plies, ctx.playerColor, over ? status.text : null);
  useFocusAtStart(ctx.gameId);

  const move = (m: TypedMove) => ai.send({ type: 'LOCAL_MOVE', from: m.from, to: m.to, ...(m.promotion ? { promotion: m.promotion, piece: 'p' } : {}) });
  const promotion = usePromotionChoice(ctx.fen, move);
  const toMenu = () => { ai.send({ type: 'MAIN_MENU' }); navigate('/'); };
  const resignAndLeave = () => {
    setConfirmLeave(false);
    ai.send({ type: 'RESIGN' });
    toMenu();
  };

  if (!showBoard) {
    return (
      <Page>
        <div className="screen-head">
          <Link to="/" className="back-link">← Back to Home</Link>
          <h1>Play Against AI</h1>
        </div>
        <section className="card panel ai-setup" aria-label="Game Settings">
          <h2>Game Settings</h2>
          <fieldset>
            <legend>Difficulty Level</legend>
            <div className="row presets">
              {AI_PRESETS.map((p) => (
                <button key={p.label} type="button" className={`btn ${presetFor(ctx.difficulty) === p.label ? 'btn-selected' : ''}`}
                  aria-pressed={presetFor(ctx.difficulty) === p.label} onClick={() => ai.send({ type: 'SET_DIFFICULTY', level: p.level })} disabled={inProgress}>
                  {p.label} ({p.level})
                </button>
              ))}
            </div>
            <label className="slider">
              <span>Fine-tune</span>
              <input type="range" min={AI_DIFFICULTY.min} max={AI_DIFFICULTY.max} step={1} value={ctx.difficulty} disabled={inProgress}
                onChange={(e) => ai.send({ type: 'SET_DIFFICULTY', level: Number(e.target.value) })} aria-valuetext={`Level ${ctx.difficulty}`} />
              <span data-testid="ai-level">Level {ctx.difficulty}</span>
            </label>
          </fieldset>
          <fieldset>
            <legend>Time Control</legend>
            <button type="button" className={`btn ${ctx.timeControl === null ? 'btn-selected' : ''}`} aria-pressed={ctx.timeControl === null}
              onClick={() => ai.send({ type: 'SET_TIME_CONTROL', timeControl: null })} disabled={inProgress}>
              No clock
            </button>
            <PoolGrid selected={ctx.timeControl} onPick={(tc) => ai.send({ type: 'SET_TIME_CONTROL', timeControl: tc })} disabled={inProgress} />
          </fieldset>
          <fieldset>
            <legend>Play as</legend>
            <div className="row color-choices">
              {COLOR_CHOICES.map((c) => (
                <button key={c.value} type="button" className={`btn color-choice ${ctx.colorChoice === c.value ? 'btn-selected' : ''}`}
                  aria-pressed={ctx.colorChoice === c.value} onClick={() => ai.send({ type: 'SET_COLOR', color: c.value })} disabled={inProgress}>
                  <span>{c.label}</span>
                  <small>{c.sub}</small>
                </button>
              ))}
            </div>
          </fieldset>
          <button type="button" className="btn btn-go" onClick={() => ai.send({ type: 'START' })} disabled={inProgress || !connected}>
            {s.matches('starting') ? 'Starting...' : 'Start Game'}
          </button>
          {ctx.error && <p className="error" role="alert">{ctx.error}</p>}
        </section>
      </Page>
    );
  }

  const orientation = flipped ? other(ctx.playerColor) : ctx.playerColor;
  const nameOf = (c: Color) => (c === ctx.playerColor ? myName ?? 'You' : ctx.opponentName);
  // the clocks of a game with a time control; they stop once it is over
  const clock = { clocks: ctx.clocks, syncedAt: ctx.clockSyncedAt, running: playing ? ctx.clockRunning : null };
  const now = () => performance.now();
  const bar = (c: Color, testId: string) => (
    <PlayerBar testId={testId} name={nameOf(c)} detail={c === ctx.playerColor ? `You · ${c}` : `Level ${ctx.difficulty} · ${c}`}
      clock={ctx.timeControl ? <ClockFace color={c} clock={clock} now={now} active={clock.running === c} /> : undefined} />
  );
  const endButtons = (
    <>
      <button type="button" className="btn btn-primary" onClick={() => ai.send({ type: 'PLAY_AGAIN' })}>Play Again</button>
      <button type="button" className="btn btn-secondary" onClick={toMenu}>Main Menu</button>
    </>
  );

  return (
    <Page play>
      <PlayLayout
        title={`AI Game vs ${ctx.opponentName}`}
        announcements={announcements}
        top={bar(other(orientation), 'top-player')}
        bottom={bar(orientation, 'bottom-player')}
        board={
          <Board
            fen={view.fen}
            orientation={orientation}
            movableColor={myTurn && view.viewPly === null ? ctx.playerColor : null}
            premoveColor={playing && !myTurn && view.viewPly === null ? ctx.playerColor : null}
            lastMove={view.lastMove}
            version={ctx.boardVersion + promotion.redraw}
            onMove={promotion.onBoardMove}
            label={`Chess board against the AI, you play ${ctx.playerColor}`}
          />
        }
        actions={
          <div className="row">
            {playing && <ResignButton asking={askingResign} onAsk={setAskingResign} onResign={() => ai.send({ type: 'RESIGN' })} />}
            {playing && !askingResign && <button type="button" className="btn" onClick={() => setConfirmLeave(true)}>Leave</button>}
            {over && !ctx.modalOpen && endButtons}
            <MuteToggle />
          </div>
        }
        info={<StatusBanner text={status.text} tone={status.tone} />}
        moves={
          <>
            <MoveList sans={view.sans} viewPly={view.viewPly} onView={view.setViewPly} />
            <KeyboardMove
              fen={ctx.fen}
              enabled={myTurn && view.viewPly === null}
              onMove={move}
            />
            <GameTools
              fen={view.fen}
              onFlip={() => setFlipped((f) => !f)}
              pgnFileName={`chess-ai-${new Date().toISOString().slice(0, 10)}.pgn`}
              pgn={() => pgnOf(ctx.moves, {
                Event: 'Game against the AI', Site: location.origin, Date: new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
                White: nameOf('white'), Black: nameOf('black'),
              })}
            />
          </>
        }
      />

      {promotion.asking && <PromotionDialog color={ctx.playerColor} onChoose={promotion.choose} onCancel={promotion.cancel} />}

      {confirmLeave && (
        <Modal title="Leave this game?" labelledBy="leave-title" onClose={() => setConfirmLeave(false)}>
          <p>Leaving resigns the game against the AI.</p>
          <div className="stack">
            <button type="button" className="btn btn-danger" onClick={resignAndLeave}>Resign and Leave</button>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirmLeave(false)}>Keep Playing</button>
          </div>
        </Modal>
      )}

      {over && ctx.modalOpen && ctx.result && (
        <GameEndModal
          title={OUTCOME_TITLES[ctx.result.outcome]}
          error={ctx.error}
          reason={aiReasonLabel(ctx.result.reason)}
          buttons={endButtons}
          onClose={() => ai.send({ type: 'CLOSE_MODAL' })}
        />
      )}
    </Page>
  );
}

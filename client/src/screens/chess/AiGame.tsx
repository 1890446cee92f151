/** Play Against AI (docs/product.md, Screens and The AI game). */
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { Board } from '../../components/Board';
import { KeyboardMove } from '../../components/KeyboardMove';
import { Modal } from '../../components/Modal';
import { PromotionDialog } from '../../components/PromotionDialog';
import { StatusBanner } from '../../components/StatusBanner';
import { getConnection, onMessage, send } from '../../app/services';
import { getInspect } from '../../app/inspector';
import { AI_PRESETS, aiGameMachine, presetFor, type ColorChoice } from '../../../../machines/client/aiGame';
import { isPromotionMove, positionOf, statusText } from '../../../../machines/client/engine';
import { aiReasonLabel, OUTCOME_TITLES } from '../../../../machines/client/outcome';
import { AI_DIFFICULTY, type PromotionPiece } from '../../../../machines/protocol/messages';

const COLOR_CHOICES: { value: ColorChoice; label: string; sub: string }[] = [
  { value: 'white', label: 'White', sub: 'Goes First' },
  { value: 'black', label: 'Black', sub: 'Goes Second' },
  { value: 'random', label: 'Random', sub: 'Surprise!' },
];

export default function AiGame() {
  const navigate = useNavigate();
  const ai = useActorRef(aiGameMachine, { input: undefined, inspect: getInspect() });
  const s = useSelector(ai, (snap) => snap);
  const connected = useSelector(getConnection(), (snap) => snap.context.connected);
  const [promotion, setPromotion] = useState<{ from: string; to: string } | null>(null);
  const [redraw, setRedraw] = useState(0);

  useEffect(() => {
    const sub = ai.on('send', (e) => send(e.message));
    const offs = [
      onMessage('gameCreated', (m) => ai.send({ type: 'GAME_CREATED', msg: m })),
      onMessage('aiGameStart', (m) => ai.send({ type: 'AI_GAME_START', msg: m })),
      onMessage('moveMade', (m) => ai.send({ type: 'MOVE_MADE', msg: m })),
      onMessage('gameOver', (m) => ai.send({ type: 'GAME_OVER', msg: m })),
      onMessage('error', (m) => {
        const snap = ai.getSnapshot();
        if (snap.matches('playing') || snap.matches('starting')) ai.send({ type: 'ERROR', message: m.message });
        else console.warn('server error', m.message);
      }),
      onMessage('moveRejected', (m) => ai.send({ type: 'REJECTED', message: m.message, fen: m.fen })),
    ];
    return () => { sub.unsubscribe(); offs.forEach((off) => off()); };
  }, [ai]);

  const ctx = s.context;
  useEffect(() => {
    if (!ctx.error?.startsWith('Invalid move:')) return;
    const t = setTimeout(() => ai.send({ type: 'CLEAR_NOTICE' }), 3000);
    return () => clearTimeout(t);
  }, [ai, ctx.error]);
  const inProgress = s.matches('playing') || s.matches('starting');
  const over = s.matches('over');
  const showBoard = s.matches('playing') || over;
  const myTurn = s.matches('playing') && positionOf(ctx.fen).turn() === ctx.playerColor;
  const lastSan = ctx.sans[ctx.sans.length - 1];

  const onBoardMove = (from: string, to: string) => {
    if (isPromotionMove(ctx.fen, from, to)) setPromotion({ from, to });
    else ai.send({ type: 'LOCAL_MOVE', from, to });
  };
  const onPromote = (p: PromotionPiece) => {
    if (promotion) ai.send({ type: 'LOCAL_MOVE', from: promotion.from, to: promotion.to, promotion: p, piece: 'p' });
    setPromotion(null);
  };

  return (
    <Page>
      <div className="screen-head">
        <Link to="/" className="back-link">← Back to Home</Link>
        <h1>Play Against AI</h1>
      </div>

      {!showBoard && (
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
      )}

      {showBoard && (
        <div className="game-layout">
          <div className="board-column">
            {over && !ctx.modalOpen && ctx.result && (
              <StatusBanner grey text={`Game over: ${OUTCOME_TITLES[ctx.result.outcome]} (${aiReasonLabel(ctx.result.reason)})`} />
            )}
            <StatusBanner text={ctx.error ?? statusText(ctx.fen, ctx.result?.outcome === 'draw' && over)} />
            <h2 className="board-title">AI Game vs {ctx.opponentName}</h2>
            <Board
              fen={ctx.fen}
              orientation={ctx.playerColor}
              movableColor={myTurn ? ctx.playerColor : null}
              lastMove={ctx.lastMove}
              version={ctx.boardVersion + redraw}
              onMove={onBoardMove}
              label={`Chess board against the AI, you play ${ctx.playerColor}`}
            />
            <KeyboardMove
              fen={ctx.fen}
              enabled={myTurn}
              onMove={(m) => ai.send({ type: 'LOCAL_MOVE', from: m.from, to: m.to, ...(m.promotion ? { promotion: m.promotion, piece: 'p' } : {}) })}
            />
          </div>
          <aside className="side-panel" aria-label="Game information">
            <h2>Game Status</h2>
            <div className={`turn-banner ${over ? 'turn-over' : myTurn ? 'turn-mine' : 'turn-theirs'}`} data-testid="turn-banner">
              {over ? 'Game Over' : myTurn ? 'Your Turn' : 'AI Thinking...'}
            </div>
            <p>You play {ctx.playerColor === 'white' ? 'White' : 'Black'} · Level {ctx.difficulty}</p>
            <p className="move-count">Moves: {ctx.moves.length}{lastSan ? ` · Last: ${lastSan}` : ''}</p>
            <button type="button" className="btn btn-danger" onClick={() => ai.send({ type: 'RESIGN' })} disabled={!s.matches('playing')}>Resign</button>
            {over && !ctx.modalOpen && (
              <div className="stack">
                <button type="button" className="btn btn-primary" onClick={() => ai.send({ type: 'PLAY_AGAIN' })}>Play Again</button>
                <button type="button" className="btn btn-secondary" onClick={() => { ai.send({ type: 'MAIN_MENU' }); navigate('/'); }}>Main Menu</button>
              </div>
            )}
          </aside>
        </div>
      )}

      {promotion && <PromotionDialog color={ctx.playerColor} onChoose={onPromote} onCancel={() => { setPromotion(null); setRedraw((n) => n + 1); }} />}

      {over && ctx.modalOpen && ctx.result && (
        <Modal title={OUTCOME_TITLES[ctx.result.outcome]} labelledBy="ai-end-title" onClose={() => ai.send({ type: 'CLOSE_MODAL' })}>
          {ctx.error && <p className="error">{ctx.error}</p>}
          <p className="end-reason">(Reason: {aiReasonLabel(ctx.result.reason)})</p>
          <div className="stack">
            <button type="button" className="btn btn-primary" onClick={() => ai.send({ type: 'PLAY_AGAIN' })}>Play Again</button>
            <button type="button" className="btn btn-secondary" onClick={() => { ai.send({ type: 'MAIN_MENU' }); navigate('/'); }}>Main Menu</button>
            <button type="button" className="btn btn-link" onClick={() => ai.send({ type: 'CLOSE_MODAL' })}>Close</button>
          </div>
        </Modal>
      )}
    </Page>
  );
}

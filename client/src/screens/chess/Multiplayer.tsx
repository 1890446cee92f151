/** The multiplayer screen (docs/product.md, Screens); also serves /chess/local. */
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { Board } from '../../components/Board';
import { KeyboardMove } from '../../components/KeyboardMove';
import { ClockFace, useTickingClocks } from '../../components/ClockFace';
import { Modal } from '../../components/Modal';
import { PromotionDialog } from '../../components/PromotionDialog';
import { StatusBanner } from '../../components/StatusBanner';
import { getConnection, getIdentity, getPlayerId, onMessage, send } from '../../app/services';
import { getInspect } from '../../app/inspector';
import { addResult, useHistory } from '../../app/history';
import { showNotification } from '../../app/notifications';
import { matchmakingMachine } from '../../../../machines/client/matchmaking';
import { multiplayerGameMachine } from '../../../../machines/client/multiplayerGame';
import { isPromotionMove, statusText } from '../../../../machines/client/engine';
import { displayName } from '../../../../machines/client/identity';
import { OUTCOME_TITLES, opponentRecord, reasonLabel } from '../../../../machines/client/outcome';
import type { ActiveGameStatusMsg, Color, PromotionPiece } from '../../../../machines/protocol/messages';

const now = () => performance.now();
const cap = (c: Color) => (c === 'white' ? 'White' : 'Black');

export default function Multiplayer() {
  const navigate = useNavigate();
  const local = useLocation().pathname === '/chess/local';
  const inspect = getInspect();
  const mm = useActorRef(matchmakingMachine, { inspect });
  const game = useActorRef(multiplayerGameMachine, { input: { now }, inspect });
  const mmState = useSelector(mm, (s) => s);
  const gs = useSelector(game, (s) => s);
  const connected = useSelector(getConnection(), (s) => s.context.connected);
  const myName = useSelector(getIdentity(), (s) => displayName(s.context));
  const history = useHistory();
  const [active, setActive] = useState<ActiveGameStatusMsg | null>(null);
  const [promotion, setPromotion] = useState<{ from: string; to: string } | null>(null);
  const [redraw, setRedraw] = useState(0);

  // machine outputs -> socket, storage, notifications
  useEffect(() => {
    const subs = [
      mm.on('send', (e) => send(e.message)),
      game.on('send', (e) => send(e.message)),
      game.on('finished', (e) => addResult(e.result)),
      game.on('notify', (e) => showNotification(e.title, e.body, e.onlyWhenHidden)),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [mm, game]);

  // socket -> machines
  useEffect(() => {
    const checkActive = () => send({ type: 'checkActiveGame', payload: { playerId: getPlayerId() ?? undefined } });
    // after a (re)connect: resync a running game from the server's snapshot, else look for one
    const afterConnect = () => {
      const snap = game.getSnapshot();
      if (snap.matches({ game: 'playing' }) && snap.context.gameId) send({ type: 'rejoinGame', payload: { gameId: snap.context.gameId } });
      else checkActive();
    };
    // an account is only itself on the socket once `identified` arrives
    const isAccount = () => getIdentity().getSnapshot().context.user !== null;
    const offs = [
      onMessage('matchmakingStatus', (m) => mm.send({ type: 'STATUS', status: m.status, message: m.message })),
      onMessage('gameStart', (m) => {
        setActive(null);
        game.send({ type: 'START', msg: m });
        mm.send({ type: 'GAME_STARTED' });
      }),
      onMessage('gameMove', (m) => game.send({ type: 'SERVER_MOVE', msg: m })),
      onMessage('timerUpdate', (m) => game.send({ type: 'TIMERS', msg: m })),
      onMessage('drawOffer', () => game.send({ type: 'DRAW_OFFERED' })),
      onMessage('drawDeclined', () => game.send({ type: 'DRAW_DECLINED' })),
      onMessage('opponentDisconnected', (m) => game.send({ type: 'OPPONENT_DISCONNECTED', message: m.message })),
      onMessage('opponentReconnected', (m) => game.send({ type: 'OPPONENT_RECONNECTED', message: m.message })),
      onMessage('moveRejected', (m) => game.send({ type: 'REJECTED', message: m.message, fen: m.fen })),
      onMessage('gameEnd', (m) => {
        game.send({ type: 'END', msg: m });
        mm.send({ type: 'GAME_ENDED' });
      }),
      onMessage('activeGameStatus', (m) => {
        const playing = game.getSnapshot().matches({ game: 'playing' });
        setActive(m.gameId && !playing ? m : null);
      }),
      onMessage('connectionAck', () => { if (!isAccount()) afterConnect(); }),
      onMessage('identified', afterConnect),
    ];
    if (getConnection().getSnapshot().context.connected) checkActive();
    return () => offs.forEach((off) => off());
  }, [mm, game]);

  const ctx = gs.context;
  const inGame = gs.matches({ game: 'playing' }) || gs.matches({ game: 'over' });
  const playing = gs.matches({ game: 'playing' });
  const over = gs.matches({ game: 'over' });
  const phase = (mmState.value as { phase: string }).phase;
  const clocks = useTickingClocks({ clocks: ctx.clocks, syncedAt: ctx.clockSyncedAt, running: playing ? ctx.clockRunning : null, now });
  const record = opponentRecord(history, ctx.opponentId);
  const myTurn = playing && ctx.turn === ctx.color;
  const opponentColor: Color = ctx.color === 'white' ? 'black' : 'white';

  const findMatch = () => mm.send({ type: 'FIND', username: myName });
  const onBoardMove = (from: string, to: string) => {
    if (isPromotionMove(ctx.fen, from, to)) setPromotion({ from, to });
    else game.send({ type: 'LOCAL_MOVE', from, to });
  };
  const onPromote = (p: PromotionPiece) => {
    if (promotion) game.send({ type: 'LOCAL_MOVE', from: promotion.from, to: promotion.to, promotion: p, piece: 'p' });
    setPromotion(null);
  };
  const resetAll = () => {
    game.send({ type: 'RESET' });
    mm.send({ type: 'RESET' });
  };

  return (
    <Page>
      <div className="screen-head">
        <Link to="/" className="back-link">← Back</Link>
        <h1>{inGame ? 'Multiplayer Game' : 'Multiplayer Chess'}</h1>
      </div>
      {local && <p className="info">Local Play is coming soon. Until then, play online here.</p>}
      {mmState.context.notice && <p className="notice" role="alert">{mmState.context.notice}</p>}

      {!inGame && (
        <section className="card panel" aria-label="Matchmaking">
          {active ? (
            <>
              <h2>You have an active game</h2>
              <p>You left a game that is still in progress.</p>
              <div className="stack">
                <button type="button" className="btn btn-primary" onClick={() => send({ type: 'rejoinGame', payload: { gameId: active.gameId ?? '' } })}>Rejoin Game</button>
                <button type="button" className="btn btn-danger" onClick={() => {
                  send({ type: 'resign', payload: { gameId: active.gameId ?? '' } });
                  setActive(null);
                  findMatch();
                }}>Forfeit &amp; Find New Game</button>
              </div>
            </>
          ) : phase === 'queued' ? (
            <>
              <p className="searching" aria-live="polite"><span className="spinner spinner-sm" aria-hidden="true" /> Finding opponent...</p>
              <button type="button" className="btn btn-secondary" onClick={() => mm.send({ type: 'CANCEL' })}>Cancel</button>
            </>
          ) : (
            <>
              <p>Play a 10-minute chess game against another player.</p>
              {mmState.context.message && <p className="info" aria-live="polite">{mmState.context.message}</p>}
              <button type="button" className="btn btn-primary" onClick={findMatch} disabled={!connected}>Find Match</button>
              {!connected && <p className="hint">Waiting for the connection...</p>}
            </>
          )}
        </section>
      )}

      {inGame && (
        <div className="game-layout">
          <div className="board-column">
            <div className={`turn-banner ${over ? 'turn-over' : myTurn ? 'turn-mine' : 'turn-theirs'}`} data-testid="turn-banner">
              {over ? 'Game Over' : myTurn ? 'Your Turn' : "Opponent's Turn"}
            </div>
            <StatusBanner text={statusText(ctx.fen, ctx.end?.winner === 'draw')} />
            {/* a fixed slot: the board must not move under the pointer when a notice comes or goes */}
            <p className={ctx.notice ? 'notice notice-slot' : 'notice-slot'} role="status" aria-live="polite" data-testid="game-notice">{ctx.notice ?? ''}</p>
            <Board
              fen={ctx.fen}
              orientation={ctx.color}
              movableColor={myTurn ? ctx.color : null}
              lastMove={ctx.lastMove}
              version={ctx.boardVersion + redraw}
              onMove={onBoardMove}
              label={`Chess board, you play ${ctx.color}`}
            />
            <KeyboardMove
              fen={ctx.fen}
              enabled={myTurn}
              onMove={(m) => game.send({ type: 'LOCAL_MOVE', from: m.from, to: m.to, ...(m.promotion ? { promotion: m.promotion, piece: 'p' } : {}) })}
            />
          </div>
          <aside className="side-panel" aria-label="Game information">
            <div className="clocks">
              <ClockFace color={opponentColor} ms={clocks[opponentColor]} active={playing && ctx.turn === opponentColor} />
              <ClockFace color={ctx.color} ms={clocks[ctx.color]} active={playing && ctx.turn === ctx.color} />
            </div>
            <div className="player-line">
              <span className="label">You ({cap(ctx.color)})</span>
              <strong>{myName ?? 'You'}</strong>
            </div>
            <div className="player-line">
              <span className="label">Opponent ({cap(opponentColor)})</span>
              <strong data-testid="opponent-name">{ctx.opponentName}</strong>
              <span className="record" data-testid="opponent-record">
                {record.wins}W / {record.losses}L / {record.draws}D · {record.winPercent}% wins
              </span>
            </div>
            {ctx.draw === 'received' && playing && (
              <div className="draw-offer" role="alert">
                <p>Your opponent offered a draw.</p>
                <div className="row">
                  <button type="button" className="btn btn-primary" onClick={() => game.send({ type: 'ACCEPT_DRAW' })}>Accept</button>
                  <button type="button" className="btn btn-secondary" onClick={() => game.send({ type: 'DECLINE_DRAW' })}>Decline</button>
                </div>
              </div>
            )}
            <div className="row">
              <button type="button" className="btn" onClick={() => game.send({ type: 'OFFER_DRAW' })} disabled={!playing || ctx.draw !== 'none'}>Offer Draw</button>
              <button type="button" className="btn btn-danger" onClick={() => game.send({ type: 'RESIGN' })} disabled={!playing}>Resign</button>
            </div>
            <p className="move-count">Moves played: {ctx.moves.length}</p>
          </aside>
        </div>
      )}

      {promotion && <PromotionDialog color={ctx.color} onChoose={onPromote} onCancel={() => { setPromotion(null); setRedraw((n) => n + 1); }} />}

      {over && ctx.end && (
        <Modal title={OUTCOME_TITLES[ctx.end.outcome]} labelledBy="end-title">
          <p className="end-message">{ctx.end.message}</p>
          <p className="end-reason">(Reason: {reasonLabel(ctx.end.reason)})</p>
          <div className="stack">
            <button type="button" className="btn btn-primary" onClick={() => { resetAll(); findMatch(); }}>Play Again</button>
            <button type="button" className="btn btn-secondary" onClick={() => { resetAll(); navigate('/'); }}>Main Menu</button>
          </div>
        </Modal>
      )}
    </Page>
  );
}

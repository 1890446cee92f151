/**
 * /game/:id as its player sees it (docs/product.md, "The game page"): the board they play on,
 * clocks, draw and resign, and at the end the result, rematch (which moves to the new game's
 * address) and a new search. The page asks the server for the game (`rejoinGame`) whenever
 * it (re)connects, so a reload, Back/Forward or a second tab find the game as it is.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { Board } from '../../components/Board';
import { KeyboardMove } from '../../components/KeyboardMove';
import { ClockFace } from '../../components/ClockFace';
import { Countdown } from '../../components/Countdown';
import { GameEndModal } from '../../components/GameEndModal';
import { GameTools, MuteToggle } from '../../components/GameTools';
import { GameChat, usePlayerChat } from '../../components/GameChat';
import { MoveList, useMoveKeys } from '../../components/MoveList';
import { PlayLayout, PlayerBar } from '../../components/PlayLayout';
import { PromotionDialog } from '../../components/PromotionDialog';
import { ResignButton } from '../../components/ResignButton';
import { ShareButton } from '../../components/ShareButton';
import { SpectatorCount } from '../../components/SpectatorCount';
import { StatusBanner } from '../../components/StatusBanner';
import { Spinner } from '../../components/Spinner';
import { getConnection, getIdentity, onMessage, send, trySend } from '../../app/services';
import { getInspect } from '../../app/inspector';
import { addResult, useHistory } from '../../app/history';
import { showNotification } from '../../app/notifications';
import { playSound } from '../../app/sounds';
import { useAnnouncements, useFocusAtStart, useGameSounds, usePromotionChoice, useTurnTitle, useViewedPosition } from '../chess/playHooks';
import { searchAgain } from '../chess/searchAgain';
import { LOW_TIME_ANNOUNCEMENT } from '../../../../machines/client/speech';
import { SPEED_NAMES, type TimeControl } from '../../../../machines/game/timeControl';
import { AWAY_TEXT, GAME_TEXT, multiplayerGameMachine, type GameEnd } from '../../../../machines/client/multiplayerGame';
import type { Absence } from '../../../../machines/client/gameMirror';
import type { TypedMove } from '../../../../machines/client/engine';
import { displayName } from '../../../../machines/client/identity';
import { pgnOf } from '../../../../machines/client/moveHistory';
import { ratingDeltaText, ratingText } from '../../../../machines/client/ratingText';
import { playStatus } from '../../../../machines/client/playStatus';
import { OUTCOME_TITLES, opponentRecord, reasonLabel } from '../../../../machines/client/outcome';
import type { ChatLine, Color } from '../../../../machines/protocol/messages';
import { GIVE_TIME_MS, UNTIMED_PLIES } from '../../../../machines/game/defaults';

const now = () => performance.now();
const NO_LINES: readonly ChatLine[] = [];
const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');

/** The socket as this screen cares about it: usable, down (reconnecting), or taken by another tab. */
type SocketState = 'open' | 'down' | 'parked';

export interface PlayGameProps {
  gameId: string;
  /** the server says this is not (or no longer) the player's game to play: show it as anyone else sees it */
  onNotMine: () => void;
}

export function PlayGame({ gameId, onNotMine }: PlayGameProps) {
  const navigate = useNavigate();
  const inspect = getInspect();
  const game = useActorRef(multiplayerGameMachine, { input: { now }, inspect });
  const gs = useSelector(game, (s) => s);
  const link = useSelector(getConnection(), (s): SocketState => (s.matches('parked') ? 'parked' : s.context.connected ? 'open' : 'down'));
  const myName = useSelector(getIdentity(), (s) => displayName(s.context));
  const history = useHistory();
  const [flipped, setFlipped] = useState(false);
  const [closedEnd, setClosedEnd] = useState<GameEnd | null>(null);
  const [timeControl, setTimeControl] = useState<TimeControl | undefined>(undefined);
  const [askingResign, setAskingResign] = useState(false);
  const [chatStart, setChatStart] = useState<readonly ChatLine[]>(NO_LINES);
  const chat = usePlayerChat(gameId, chatStart);
  const [spectators, setSpectators] = useState<number | null>(null);
  const [vsEngine, setVsEngine] = useState(false);

  // machine outputs -> socket, storage, notifications
  useEffect(() => {
    const subs = [
      // a move is sent only on an open socket; otherwise it is taken back on the board, never shown as played
      game.on('send', (e) => {
        if (e.message.type !== 'gameMove') send(e.message);
        else if (!trySend(e.message)) game.send({ type: 'MOVE_NOT_SENT' });
      }),
      game.on('finished', (e) => addResult(e.result)),
      game.on('notify', (e) => showNotification(e.title, e.body, e.onlyWhenHidden)),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [game]);

  // socket -> machine
  useEffect(() => {
    const rejoin = () => send({ type: 'rejoinGame', payload: { gameId } });
    // an account is only itself on the socket once `identified` arrives
    const isAccount = () => getIdentity().getSnapshot().context.user !== null;
    const idle = () => game.getSnapshot().matches({ game: 'idle' });
    const offs = [
      onMessage('gameStart', (m) => {
        // the player's game against the AI is the AI screen's, unless this page shows that very game
        if (m.engineLevel !== undefined && m.gameId !== gameId) return;
        setTimeControl(m.timeControl);
        setVsEngine(m.engineLevel !== undefined);
        // the player's next game (a rematch): it has its own address
        if (m.gameId !== gameId) navigate(`/game/${m.gameId}`);
        else {
          setChatStart(m.chat ?? NO_LINES);
          game.send({ type: 'START', msg: m });
        }
      }),
      onMessage('gameMove', (m) => game.send({ type: 'SERVER_MOVE', msg: m })),
      onMessage('timerUpdate', (m) => game.send({ type: 'TIMERS', msg: m })),
      onMessage('drawOffer', () => game.send({ type: 'DRAW_OFFERED' })),
      onMessage('drawDeclined', () => game.send({ type: 'DRAW_DECLINED' })),
      onMessage('takebackOffer', (m) => { if (m.gameId === gameId) game.send({ type: 'TAKEBACK_OFFERED' }); }),
      onMessage('takebackDeclined', (m) => { if (m.gameId === gameId) game.send({ type: 'TAKEBACK_DECLINED' }); }),
      onMessage('takeback', (m) => game.send({ type: 'TAKEN_BACK', msg: m })),
      onMessage('timeGiven', (m) => game.send({ type: 'TIME_GIVEN', msg: m })),
      onMessage('rematchOffer', (m) => game.send({ type: 'REMATCH_OFFERED', gameId: m.gameId })),
      onMessage('rematchDeclined', (m) => game.send({ type: 'REMATCH_DECLINED', gameId: m.gameId })),
      onMessage('opponentDisconnected', (m) => game.send({ type: 'OPPONENT_DISCONNECTED', graceMs: m.graceMs })),
      onMessage('opponentReconnected', () => game.send({ type: 'OPPONENT_RECONNECTED' })),
      onMessage('moveRejected', (m) => game.send({ type: 'REJECTED', message: m.message, fen: m.fen })),
      onMessage('ratingChange', (m) => game.send({ type: 'RATING_CHANGE', msg: m })),
      onMessage('spectators', (m) => { if (m.gameId === gameId) setSpectators(m.count); }),
      onMessage('gameEnd', (m) => {
        // ended before this page had it (while the player was away): its record tells the rest
        if (m.gameId === gameId && idle()) onNotMine();
        else game.send({ type: 'END', msg: m });
      }),
      // the server does not have it as this player's game
      onMessage('error', (m) => {
        if (idle() && (m.code === 'unknown_game' || m.code === 'not_your_game') && (m.gameId === undefined || m.gameId === gameId)) onNotMine();
      }),
      onMessage('connectionAck', () => { if (!isAccount()) rejoin(); }),
      onMessage('identified', rejoin),
    ];
    if (getConnection().getSnapshot().context.connected) rejoin();
    return () => offs.forEach((off) => off());
  }, [game, gameId, navigate, onNotMine]);

  const ctx = gs.context;
  const inGame = gs.matches({ game: 'playing' }) || gs.matches({ game: 'over' });
  const playing = gs.matches({ game: 'playing' });
  const over = gs.matches({ game: 'over' });
  const live = playing && link === 'open';
  const myTurn = playing && ctx.turn === ctx.color;
  const view = useViewedPosition(ctx.moves, ctx.fen, ctx.lastMove);
  useMoveKeys(view.plies.length, view.viewPly, view.setViewPly);
  useGameSounds(ctx.gameId ?? ctx.end, view.plies, over);
  useTurnTitle(live && myTurn);
  const record = opponentRecord(history, ctx.opponentId);
  const orientation = flipped ? other(ctx.color) : ctx.color;
  const topColor = other(orientation);
  const clock = { clocks: ctx.clocks, syncedAt: ctx.clockSyncedAt, running: live ? ctx.clockRunning : null };
  // before both sides have moved the server scores a resignation as aborted, so it is offered as Abort
  const canAbort = playing && ctx.moves.length < UNTIMED_PLIES;
  // lichess's "+" by the opponent's clock: in a game with a clock, not against the AI
  const canGiveTime = playing && timeControl !== undefined && !vsEngine;
  const giveTimeLabel = `Give ${GIVE_TIME_MS / 1000} seconds`;
  const endShown = over && ctx.end !== null && closedEnd !== ctx.end;

  // a new game starts un-flipped, with no question asked
  useEffect(() => {
    setFlipped(false);
    setAskingResign(false);
  }, [ctx.gameId]);

  const move = (m: TypedMove) => game.send({ type: 'LOCAL_MOVE', from: m.from, to: m.to, ...(m.promotion ? { promotion: m.promotion, piece: 'p' } : {}) });
  const promotion = usePromotionChoice(ctx.fen, move);
  const endTitle = ctx.end ? (ctx.end.aborted ? 'Game Aborted' : OUTCOME_TITLES[ctx.end.outcome]) : '';
  const status = playStatus({
    fen: ctx.fen, playerColor: ctx.color, theirTurn: "Opponent's Turn",
    end: over && ctx.end ? { title: endTitle, reasonLabel: reasonLabel(ctx.end.reason), aborted: ctx.end.aborted, draw: ctx.end.winner === 'draw' } : null,
  });
  const { announcements, announce } = useAnnouncements(view.plies, ctx.color, over ? status.text : null);
  const lowTime = useCallback(() => {
    playSound('lowtime');
    announce(LOW_TIME_ANNOUNCEMENT);
  }, [announce]);
  useFocusAtStart(ctx.gameId);
  const nameOf = (c: Color) => (c === ctx.color ? myName ?? 'You' : ctx.opponentName);
  const ratingOf = (c: Color) => {
    const r = ctx.ratings?.[c];
    const change = ctx.ratingChange?.[c];
    if (!r) return null;
    return (
      <span className="player-rating" data-testid={c === ctx.color ? 'my-rating' : 'opponent-rating'}
        title={r.provisional ? 'Provisional rating: not enough rated games yet' : undefined}>
        {' '}{ratingText(r)}
        {change && <span className={`rating-change ${change.after < change.before ? 'down' : 'up'}`} data-testid="rating-change"> {ratingDeltaText(change)}</span>}
      </span>
    );
  };
  const clockFace = (c: Color) => <ClockFace color={c} clock={clock} now={now} active={clock.running === c} onLow={c === ctx.color ? lowTime : undefined} />;
  const bar = (c: Color, testId: string) => (
    <PlayerBar
      testId={testId}
      name={<><span data-testid={c === ctx.color ? 'my-name' : 'opponent-name'}>{nameOf(c)}</span>{ratingOf(c)}</>}
      detail={c === ctx.color ? `You · ${c}` : <span data-testid="opponent-record">{record.wins}W / {record.losses}L / {record.draws}D · {record.winPercent}% wins</span>}
      clock={c !== ctx.color && canGiveTime ? (
        <span className="row">
          <button type="button" className="btn btn-small" aria-label={giveTimeLabel} title={giveTimeLabel} onClick={() => game.send({ type: 'GIVE_TIME' })} disabled={!live}>+</button>
          {clockFace(c)}
        </span>
      ) : clockFace(c)}
    />
  );
  const rematchLabel = { none: 'Rematch', sent: 'Rematch offered...', declined: 'Rematch declined', received: 'Rematch' }[ctx.rematch];
  const endButtons = (
    <>
      {ctx.rematch === 'received' ? (
        <div className="draw-offer" role="alert">
          <p>Your opponent wants a rematch.</p>
          <div className="row">
            <button type="button" className="btn btn-primary" onClick={() => game.send({ type: 'OFFER_REMATCH' })} disabled={link !== 'open'}>Accept Rematch</button>
            <button type="button" className="btn btn-secondary" onClick={() => game.send({ type: 'DECLINE_REMATCH' })} disabled={link !== 'open'}>Decline</button>
          </div>
        </div>
      ) : (
        <button type="button" className="btn btn-primary" onClick={() => game.send({ type: 'OFFER_REMATCH' })} disabled={ctx.rematch !== 'none' || link !== 'open'}>{rematchLabel}</button>
      )}
      <button type="button" className="btn" onClick={() => navigate('/chess/multiplayer', { state: searchAgain(timeControl) })}>Play Again</button>
      <button type="button" className="btn btn-secondary" onClick={() => navigate('/')}>Main Menu</button>
    </>
  );


  if (!inGame) return <Page><Spinner label="Loading game..." /></Page>;

  return (
    <Page play>
      <PlayLayout
        title="Multiplayer Game"
        announcements={announcements}
        top={bar(topColor, 'top-player')}
        bottom={bar(orientation, 'bottom-player')}
        board={
          <Board
            fen={view.fen}
            orientation={orientation}
            movableColor={live && myTurn && view.viewPly === null ? ctx.color : null}
            premoveColor={live && !myTurn && view.viewPly === null ? ctx.color : null}
            lastMove={view.lastMove}
            version={ctx.boardVersion + promotion.redraw}
            onMove={promotion.onBoardMove}
            label={`Chess board, you play ${ctx.color}`}
          />
        }
        actions={
          <div className="row">
            {playing && canAbort && (
              <button type="button" className="btn" onClick={() => game.send({ type: 'RESIGN' })} disabled={!live}>Abort</button>
            )}
            {playing && !canAbort && ctx.draw === 'received' && (
              <>
                <button type="button" className="btn btn-primary" onClick={() => game.send({ type: 'ACCEPT_DRAW' })} disabled={!live}>Accept Draw</button>
                <button type="button" className="btn btn-secondary" onClick={() => game.send({ type: 'DECLINE_DRAW' })} disabled={!live}>Decline</button>
              </>
            )}
            {playing && !canAbort && ctx.draw !== 'received' && (
              <>
                {!askingResign && (
                  <button type="button" className="btn" onClick={() => game.send({ type: 'OFFER_DRAW' })} disabled={!live || ctx.drawOfferRefusal !== null}
                    title={ctx.drawOfferRefusal ?? undefined}>Offer Draw</button>
                )}
                <ResignButton asking={askingResign} onAsk={setAskingResign} onResign={() => game.send({ type: 'RESIGN' })} disabled={!live} />
              </>
            )}
            {playing && ctx.takeback === 'received' && (
              <>
                <button type="button" className="btn btn-primary" onClick={() => game.send({ type: 'ACCEPT_TAKEBACK' })} disabled={!live}>Accept Takeback</button>
                <button type="button" className="btn btn-secondary" onClick={() => game.send({ type: 'DECLINE_TAKEBACK' })} disabled={!live}>Decline Takeback</button>
              </>
            )}
            {playing && ctx.takebacksAllowed && ctx.takeback !== 'received' && (
              <button type="button" className="btn" onClick={() => game.send({ type: 'PROPOSE_TAKEBACK' })} disabled={!live || ctx.takebackRefusal !== null}
                title={ctx.takebackRefusal ?? 'Propose to take back your last move'}>Takeback</button>
            )}
            {over && !endShown && endButtons}
            <ShareButton />
            <MuteToggle />
          </div>
        }
        info={
          <>
            <StatusBanner text={status.text} tone={status.tone} />
            {playing && <SpectatorCount count={spectators} />}
            {/* one notice at a time, in a slot of fixed height: nothing below it moves when one comes or goes */}
            <div className="play-notice" role="status" aria-live="polite">
              {link === 'parked' && playing ? (
                <p className="notice" data-testid="seat-taken">
                  This game continues in another tab.{' '}
                  <button type="button" className="btn btn-small" onClick={() => getConnection().send({ type: 'RECONNECT' })}>Play here</button>
                </p>
              ) : link === 'down' && playing ? (
                <p className="notice">Connection lost. Reconnecting... moves are paused.</p>
              ) : playing && ctx.opponentAway ? (
                <p className="notice" data-testid="opponent-away"><OpponentAway away={ctx.opponentAway} clocksRun={!canAbort} /></p>
              ) : ctx.notice ? (
                <p className="notice" data-testid="game-notice">{ctx.notice}</p>
              ) : ctx.takeback === 'received' && playing ? (
                <p className="notice" data-testid="takeback-received">{GAME_TEXT.takebackReceived}</p>
              ) : ctx.takeback === 'sent' && playing ? (
                <p className="notice">{GAME_TEXT.takebackSent}</p>
              ) : ctx.draw === 'received' && playing ? (
                <p className="notice">{GAME_TEXT.drawReceived}</p>
              ) : ctx.draw === 'sent' && playing ? (
                <p className="notice">{GAME_TEXT.drawSent}</p>
              ) : playing && ctx.firstMoveDeadline !== null ? (
                <p className="info" data-testid="first-move">
                  <Countdown until={ctx.firstMoveDeadline} now={now}
                    render={(s) => (myTurn ? `Make your first move: ${s} s left, or the game is aborted.` : `Waiting for the opponent's first move: ${s} s.`)} />
                </p>
              ) : null}
            </div>
          </>
        }
        moves={
          <>
            <MoveList sans={view.sans} viewPly={view.viewPly} onView={view.setViewPly} />
            <KeyboardMove
              fen={ctx.fen}
              enabled={live && myTurn && view.viewPly === null}
              onMove={move}
            />
            <GameTools
              fen={view.fen}
              onFlip={() => setFlipped((f) => !f)}
              pgnFileName={`chess-${new Date().toISOString().slice(0, 10)}.pgn`}
              pgn={() => pgnOf(ctx.moves, {
                Event: 'Casual game', Site: location.origin, Date: new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
                White: nameOf('white'), Black: nameOf('black'),
              })}
            />
            <GameChat gameId={gameId} room="player" lines={chat} myColor={ctx.color} closed={over ? 'The game is over.' : null} />
          </>
        }
      />

      {promotion.asking && <PromotionDialog color={ctx.color} onChoose={promotion.choose} onCancel={promotion.cancel} />}

      {endShown && ctx.end && (
        <GameEndModal
          title={endTitle}
          line={{ message: ctx.end.message }}
          reason={ctx.end.aborted ? null : reasonLabel(ctx.end.reason)}
          buttons={(
            <>
              {endButtons}
              {ctx.endedGameId && <button type="button" className="btn btn-link" onClick={onNotMine} data-testid="end-game-link">View game</button>}
            </>
          )}
          onClose={() => setClosedEnd(ctx.end)}
        >
          {ctx.ratingChange && (
            <p className="end-rating" data-testid="end-rating-change">
              Your {SPEED_NAMES[ctx.ratingChange.speed]} rating: {Math.round(ctx.ratingChange[ctx.color].after)} ({ratingDeltaText(ctx.ratingChange[ctx.color])})
            </p>
          )}
        </GameEndModal>
      )}
    </Page>
  );
}

/** The absent opponent's grace as the server counts it: running down on their turn, waiting on ours. */
function OpponentAway({ away, clocksRun }: { away: Absence; clocksRun: boolean }) {
  if (!clocksRun) return <>{AWAY_TEXT.beforeClocks}</>;
  if (away.countingSince === null) return <>{AWAY_TEXT.waiting(Math.ceil(away.graceLeftMs / 1000))}</>;
  return <Countdown until={away.countingSince + away.graceLeftMs} now={now} render={AWAY_TEXT.counting} />;
}

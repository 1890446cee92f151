/**
 * The multiplayer screen (docs/product.md, Screens): the pools and the search. When the server
 * pairs the player, or has a game of theirs running, the screen gives way to the game's own
 * page, /game/:id (replacing this address, so Back from the game goes where the player was
 * before the search).
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { Page } from '../../components/Page';
import { PoolGrid, poolSentence } from '../../components/PoolGrid';
import { getConnection, getIdentity, getPlayerId, onMessage, send } from '../../app/services';
import { getInspect } from '../../app/inspector';
import { searchAsked } from './searchAgain';
import { CustomGames } from './CustomGames';
import { matchmakingMachine } from '../../../../machines/client/matchmaking';
import { DEFAULT_TIME_CONTROL, sameTimeControl, type TimeControl } from '../../../../machines/game/timeControl';
import { displayName } from '../../../../machines/client/identity';

export default function Multiplayer() {
  const navigate = useNavigate();
  const location = useLocation();
  const mm = useActorRef(matchmakingMachine, { inspect: getInspect() });
  const mmState = useSelector(mm, (s) => s);
  const open = useSelector(getConnection(), (s) => !s.matches('parked') && s.context.connected);
  const myName = useSelector(getIdentity(), (s) => displayName(s.context));
  const asked = useRef(searchAsked(location.state));
  const [pool, setPool] = useState<TimeControl>(asked.current?.timeControl ?? DEFAULT_TIME_CONTROL);

  useEffect(() => {
    const sub = mm.on('send', (e) => send(e.message));
    return () => sub.unsubscribe();
  }, [mm]);

  // socket -> machine; a game of the player's goes to its page
  useEffect(() => {
    const toGame = (gameId: string) => navigate(`/game/${gameId}`, { replace: true });
    const checkActive = () => send({ type: 'checkActiveGame', payload: { playerId: getPlayerId() ?? undefined } });
    // an account is only itself on the socket once `identified` arrives
    const isAccount = () => getIdentity().getSnapshot().context.user !== null;
    const offs = [
      onMessage('matchmakingStatus', (m) => mm.send({ type: 'STATUS', status: m.status, message: m.message, ...(m.activeGame ? { activeGame: m.activeGame } : {}) })),
      onMessage('gameStart', (m) => {
        if (m.engineLevel !== undefined) return; // a game against the AI: the AI screen's
        mm.send({ type: 'GAME_STARTED' });
        toGame(m.gameId);
      }),
      // a game still running on the server (after a reload, Back or Forward): straight back into it
      onMessage('activeGameStatus', (m) => {
        if (m.gameId && m.engineLevel === undefined) toGame(m.gameId);
      }),
      onMessage('connectionAck', () => { if (!isAccount()) checkActive(); }),
      onMessage('identified', checkActive),
    ];
    if (getConnection().getSnapshot().context.connected) checkActive();
    return () => offs.forEach((off) => off());
  }, [mm, navigate]);

  // the default pool (10+0) is asked for by naming none, so the server's clock for it (CLOCK_SECONDS) holds
  const findMatch = (timeControl: TimeControl = pool) =>
    mm.send({ type: 'FIND', username: myName, ...(sameTimeControl(timeControl, DEFAULT_TIME_CONTROL) ? {} : { timeControl }) });
  const pickPool = (timeControl: TimeControl) => {
    setPool(timeControl);
    findMatch(timeControl);
  };

  // "Play Again" on a game's page: the search starts once the socket is usable
  useEffect(() => {
    if (!open || !asked.current) return;
    asked.current = null;
    navigate('.', { replace: true, state: null });
    findMatch();
  });

  const phase = (mmState.value as { phase: string }).phase;
  const activeGame = mmState.context.activeGame;
  return (
    <Page>
      <div className="screen-head">
        <Link to="/" className="back-link">← Back</Link>
        <h1>Multiplayer Chess</h1>
      </div>
      {mmState.context.notice && <p className="notice" role="alert">{mmState.context.notice}</p>}
      <section className="card panel" aria-label="Matchmaking">
        {phase === 'queued' ? (
          <>
            <p className="searching" aria-live="polite"><span className="spinner spinner-sm" aria-hidden="true" /> Finding opponent...</p>
            <button type="button" className="btn btn-secondary" onClick={() => mm.send({ type: 'CANCEL' })}>Cancel</button>
          </>
        ) : (
          <>
            <p>{poolSentence(pool)}</p>
            <PoolGrid selected={pool} onPick={pickPool} disabled={!open} />
            {mmState.context.message && <p className="info" aria-live="polite">{mmState.context.message}</p>}
            {activeGame && (
              <p className="notice" data-testid="active-game">
                {activeGame.vsAi ? 'Your game against the AI is still in progress.' : 'Your game is still in progress.'}{' '}
                <Link to={activeGame.vsAi ? '/chess/ai' : `/game/${activeGame.gameId}`} className="btn btn-small">Go to the game</Link>{' '}
                <button type="button" className="btn btn-small btn-secondary" onClick={() => mm.send({ type: 'RESIGN_ACTIVE' })} disabled={!open}>Resign it</button>
              </p>
            )}
            <button type="button" className="btn btn-primary" onClick={() => findMatch()} disabled={!open}>Find Match</button>
            {!open && <p className="hint">Waiting for the connection...</p>}
          </>
        )}
      </section>
      <CustomGames open={open} />
    </Page>
  );
}

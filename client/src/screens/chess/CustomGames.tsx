/**
 * The multiplayer screen's custom games (docs/product.md): the form that posts a game to the
 * lobby or makes a challenge link, and the lobby's live list, where a game is joined (or one's
 * own cancelled). A joined game starts like a pairing: the screen goes to the game's page.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import type { CustomGame, Hook } from '../../../../machines/protocol/messages';
import { creatorText, customGameLine, viewerColorText } from '../../../../machines/client/challengeText';
import { displayName } from '../../../../machines/client/identity';
import { applyLobbyChange } from '../../../../machines/lobby/listing';
import { getIdentity, getPlayerId, onMessage, send } from '../../app/services';
import { CustomGameForm } from '../../components/CustomGameForm';

/** Follows the lobby while mounted (again after a reconnect): its whole list, then each change applied; its games, oldest first. */
function useLobby(open: boolean): Hook[] {
  const [hooks, setHooks] = useState<Hook[]>([]);
  useEffect(() => {
    const offs = [
      onMessage('lobbyHooks', (m) => setHooks(m.hooks)),
      onMessage('lobbyHooksChanged', (m) => setHooks((list) => applyLobbyChange(list, m))),
    ];
    if (open) send({ type: 'watchLobby' });
    return () => {
      offs.forEach((off) => off());
      if (open) send({ type: 'unwatchLobby' });
    };
  }, [open]);
  return hooks;
}

export function CustomGames({ open }: { open: boolean }) {
  const navigate = useNavigate();
  const hooks = useLobby(open);
  const signedIn = useSelector(getIdentity(), (s) => s.context.user !== null);
  const myName = useSelector(getIdentity(), (s) => displayName(s.context));
  const [error, setError] = useState<string | null>(null);
  const makingChallenge = useRef(false);
  const me = getPlayerId();

  useEffect(() => {
    const offs = [
      onMessage('challenge', (m) => {
        if (!makingChallenge.current || m.challenge.by.id !== getPlayerId() || m.challenge.status !== 'created' || m.challenge.to) return;
        makingChallenge.current = false;
        navigate(`/challenge/${m.challenge.id}`);
      }),
      onMessage('error', (m) => {
        if (m.code && ['hook_unavailable', 'rated_needs_account', 'challenge_limit', 'active_game', 'game_start_failed'].includes(m.code)) setError(m.message);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [navigate]);

  const post = (options: CustomGame) => {
    setError(null);
    send({ type: 'postHook', payload: { options, username: myName } });
  };
  const challenge = (options: CustomGame) => {
    setError(null);
    makingChallenge.current = true;
    send({ type: 'createChallenge', payload: { options, username: myName } });
  };
  return (
    <section className="card" aria-label="Custom games">
      <h2>Custom game</h2>
      <CustomGameForm signedIn={signedIn} disabled={!open} actions={[
        { label: 'Create lobby game', onPick: post, primary: true, testId: 'post-hook' },
        { label: 'Challenge a friend', onPick: challenge, testId: 'create-challenge' },
      ]} />
      {error && <p className="notice" role="alert">{error}</p>}
      <h2>Lobby</h2>
      {hooks.length === 0 ? (
        <p className="hint" data-testid="lobby-empty">No games are waiting. Create one, and it is listed here for everyone.</p>
      ) : (
        <div className="hooks-scroll">
        <table className="hooks" data-testid="lobby">
          <thead><tr><th>Player</th><th>Game</th><th>Colour</th><th /></tr></thead>
          <tbody>
            {hooks.map((h) => {
              const own = h.by.id === me;
              return (
                <tr key={h.id} className={own ? 'hook-own' : undefined} data-testid="hook">
                  <td>{creatorText(h.by)}</td>
                  <td>{customGameLine(h)}</td>
                  <td>{viewerColorText(h.color, own)}</td>
                  <td>
                    {own ? (
                      <button type="button" className="btn btn-small btn-secondary" onClick={() => send({ type: 'cancelHook' })}>Cancel</button>
                    ) : (
                      <button type="button" className="btn btn-small btn-primary" disabled={!open || (h.rated && !signedIn)}
                        title={h.rated && !signedIn ? 'Sign in to play rated games' : undefined}
                        onClick={() => send({ type: 'joinHook', payload: { hookId: h.id, username: myName } })}>Join</button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}

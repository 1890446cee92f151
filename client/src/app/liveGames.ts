/**
 * The site's list of live games as a page follows it (docs/protocol.md, "Live games"):
 * `watchLiveGames` on every (re)connect, the changes applied as they come, `unwatchLiveGames`
 * when the page goes. null until the server's first answer.
 */
import { useEffect, useState } from 'react';
import type { LiveGameSummary } from '../../../machines/protocol/messages';
import { applyChange } from '../../../machines/game/liveList';
import { getConnection, onMessage, trySend } from './services';

export function useLiveGames(): LiveGameSummary[] | null {
  const [games, setGames] = useState<LiveGameSummary[] | null>(null);
  useEffect(() => {
    const ask = () => trySend({ type: 'watchLiveGames' });
    const offs = [
      onMessage('liveGames', (m) => setGames(m.games)),
      onMessage('liveGamesChanged', (m) => setGames((list) => (list ? applyChange(list, m) : list))),
    ];
    const opened = getConnection().on('opened', ask);
    ask();
    return () => {
      offs.forEach((off) => off());
      opened.unsubscribe();
      trySend({ type: 'unwatchLiveGames' });
    };
  }, []);
  return games;
}

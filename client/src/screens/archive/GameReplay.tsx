/**
 * /game/:id — an archived game replayed on the board: SAN move list (click a move, arrow keys,
 * Home/End), both clocks at every move, PGN download and FEN copy of the position shown.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { Board } from '../../components/Board';
import { useArchive } from '../../app/archiveApi';
import { ARCHIVE_API, publicGameSchema, type PublicGame, type PublicPlayer } from '../../../../machines/protocol/archive';
import type { Color } from '../../../../machines/protocol/messages';
import { navigate, replayGame, type ReplayPly } from '../../../../machines/client/replay';
import { formatClock } from '../../../../machines/game/display';
import { reasonLabel } from '../../../../machines/client/outcome';

const RESULT = { white: '1-0', black: '0-1', draw: '½-½' } as const;
const noMove = () => undefined;

function downloadPgn(game: PublicGame): void {
  const url = URL.createObjectURL(new Blob([game.pgn], { type: 'application/x-chess-pgn' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${game.id}.pgn`;
  a.click();
  URL.revokeObjectURL(url);
}

function PlayerLine({ player, color, ply }: { player: PublicPlayer; color: Color; ply: ReplayPly }) {
  const change = player.rating ? Math.round(player.rating.after) - Math.round(player.rating.before) : null;
  return (
    <div className={`replay-player ${ply.turn === color ? 'to-move' : ''}`} data-testid={`replay-${color}`}>
      <span className="replay-name">
        {player.username ? <Link to={`/@/${player.username}`}>{player.name}</Link> : player.name}
        {player.rating && <span className="replay-rating"> {Math.round(player.rating.before)} {change! >= 0 ? `+${change}` : change}</span>}
      </span>
      <span className="clock" data-testid={`replay-clock-${color}`}>{formatClock(ply.clocks[color])}</span>
    </div>
  );
}

function MoveList({ plies, current, onPick }: { plies: ReplayPly[]; current: number; onPick: (ply: number) => void }) {
  const rows: ReplayPly[][] = [];
  for (let i = 1; i < plies.length; i += 2) rows.push(plies.slice(i, i + 2));
  return (
    <ol className="move-list" data-testid="replay-moves">
      {rows.map((pair, r) => (
        <li key={r}>
          <span className="move-number">{r + 1}.</span>
          {pair.map((p) => (
            <button key={p.ply} type="button" className={`move ${p.ply === current ? 'current' : ''}`} aria-current={p.ply === current ? 'step' : undefined}
              onClick={() => onPick(p.ply)}>{p.san}</button>
          ))}
        </li>
      ))}
    </ol>
  );
}

function Replay({ game }: { game: PublicGame }) {
  const plies = useMemo(() => replayGame(game.moves, game.clocksMs, game.clockMs), [game]);
  const last = plies.length - 1;
  const [current, setCurrent] = useState(last);
  const [orientation, setOrientation] = useState<Color>('white');
  const [copied, setCopied] = useState(false);
  const ply = plies[current]!;

  const onKey = useCallback((e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    const next = navigate(e.key, current, last);
    if (next === null) return;
    e.preventDefault();
    setCurrent(next);
  }, [current, last]);
  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onKey]);

  const top: Color = orientation === 'white' ? 'black' : 'white';
  const result = game.reason === 'aborted' ? 'Aborted' : `${RESULT[game.winner]} · ${reasonLabel(game.reason)}`;
  return (
    <div className="replay">
      <div className="board-column">
        <PlayerLine player={game[top]} color={top} ply={ply} />
        <Board fen={ply.fen} orientation={orientation} movableColor={null} lastMove={ply.lastMove} version={current} onMove={noMove}
          label={`Position after ${current === 0 ? 'no moves' : `move ${Math.ceil(current / 2)}${current % 2 ? '' : '...'} ${ply.san}`}`} />
        <PlayerLine player={game[top === 'white' ? 'black' : 'white']} color={top === 'white' ? 'black' : 'white'} ply={ply} />
      </div>
      <aside className="replay-side card">
        <p className="replay-result" data-testid="replay-result">{result}{game.rated ? ' · Rated' : ' · Casual'}</p>
        <MoveList plies={plies} current={current} onPick={setCurrent} />
        <div className="replay-nav" role="group" aria-label="Move navigation">
          <button type="button" className="btn" onClick={() => setCurrent(0)} aria-label="First move">⏮</button>
          <button type="button" className="btn" onClick={() => setCurrent(Math.max(0, current - 1))} aria-label="Previous move">◀</button>
          <button type="button" className="btn" onClick={() => setCurrent(Math.min(last, current + 1))} aria-label="Next move">▶</button>
          <button type="button" className="btn" onClick={() => setCurrent(last)} aria-label="Last move">⏭</button>
        </div>
        <div className="replay-tools">
          <button type="button" className="btn" onClick={() => setOrientation(orientation === 'white' ? 'black' : 'white')}>Flip board</button>
          <button type="button" className="btn" onClick={() => downloadPgn(game)}>Download PGN</button>
          <button type="button" className="btn" onClick={() => {
            void navigator.clipboard?.writeText(ply.fen).then(() => setCopied(true), () => setCopied(false));
          }}>{copied ? 'FEN copied' : 'Copy FEN'}</button>
        </div>
        <input className="replay-fen" readOnly value={ply.fen} aria-label="FEN of the position shown" data-testid="replay-fen"
          onFocus={(e) => e.currentTarget.select()} />
      </aside>
    </div>
  );
}

export default function GameReplay() {
  const { id = '' } = useParams();
  const game = useArchive(ARCHIVE_API.game(id), publicGameSchema);
  if (game.state === 'loading') return <Page><Spinner label="Loading game..." /></Page>;
  if (game.state === 'missing') return <Page><h1>Game not found</h1><p>No finished game has this address.</p></Page>;
  if (game.state === 'failed') return <Page><h1>Game unavailable</h1><p>{game.message}</p></Page>;
  return <Page><Replay game={game.data} /></Page>;
}

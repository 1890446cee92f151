/**
 * /game/:id as anyone but its players sees it — a game being played is shown live
 * (./LiveGame.tsx); any other is an archived game replayed on the board: SAN move list (click a move, arrow keys,
 * Home/End), both clocks at every move, PGN download and FEN copy of the position shown.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { ANNOTATION_GLYPHS, barFill, formatScore, JUDGEMENT_NAMES, terminalVerdict, type JudgedMove, type Score } from '../../../../machines/client/analysis';
import { Link } from 'react-router-dom';
import { Page } from '../../components/Page';
import { Spinner } from '../../components/Spinner';
import { Board } from '../../components/Board';
import { downloadPgn } from '../../components/GameTools';
import { MoveList, useMoveKeys, type MoveNote } from '../../components/MoveList';
import { ShareButton } from '../../components/ShareButton';
import { useArchive } from '../../app/archiveApi';
import { ARCHIVE_API, publicGameSchema, type PublicGame, type PublicPlayer } from '../../../../machines/protocol/archive';
import type { Color } from '../../../../machines/protocol/messages';
import { replayGame, type ReplayPly } from '../../../../machines/client/replay';
import { formatClock } from '../../../../machines/game/display';
import { resultLine } from '../../../../machines/client/outcome';
import { shownPlayerName } from '../../../../machines/client/playerName';
import { LiveGame, useWatchedGame } from './LiveGame';

const noMove = () => undefined;
/** Stockfish and the analysis panel load only when asked for. */
const AnalysisPanel = lazy(() => import('./analysis/AnalysisPanel'));

function PlayerLine({ player, color, ply }: { player: PublicPlayer; color: Color; ply: ReplayPly }) {
  const change = player.rating ? Math.round(player.rating.after) - Math.round(player.rating.before) : null;
  return (
    <div className={`replay-player ${ply.turn === color ? 'to-move' : ''}`} data-testid={`replay-${color}`}>
      <span className="replay-name">
        {player.username ? <Link to={`/@/${player.username}`}>{player.name}</Link> : shownPlayerName(player.name, player.guest)}
        {player.rating && <span className="replay-rating"> {Math.round(player.rating.before)} {change! >= 0 ? `+${change}` : change}</span>}
      </span>
      <span className="clock" data-testid={`replay-clock-${color}`}>{formatClock(ply.clocks[color])}</span>
    </div>
  );
}

/** The evaluation beside the board, as tall as it: White's share from White's side of the board. */
function EvalBar({ score, fen, orientation }: { score: Score | null; fen: string; orientation: Color }) {
  const white = (score ? barFill(score) : 0.5) * 100;
  const text = terminalVerdict(fen)?.score ?? (score ? formatScore(score) : 'pending');
  return (
    <div className={orientation === 'white' ? 'eval-bar' : 'eval-bar eval-bar-flipped'} role="img" data-testid="eval-bar" aria-label={`Evaluation ${text}`}>
      <div className="eval-bar-white" style={{ height: `${white}%` }} />
    </div>
  );
}

/** The move list's annotations from the analysis: by move index (ply 1 is move 0). */
function notesOf(judged: readonly JudgedMove[]): ReadonlyMap<number, MoveNote> {
  return new Map(judged.map((j) => [j.ply - 1, { glyph: ANNOTATION_GLYPHS[j.judgement], loss: j.loss, name: JUDGEMENT_NAMES[j.judgement], judgement: j.judgement }]));
}

function Replay({ game }: { game: PublicGame }) {
  const plies = useMemo(() => replayGame(game.moves, game.clocksMs, game.clockMs), [game]);
  const last = plies.length - 1;
  const [current, setCurrent] = useState(last);
  const [orientation, setOrientation] = useState<Color>('white');
  const [copied, setCopied] = useState(false);
  const [analysing, setAnalysing] = useState(false);
  const [bestMove, setBestMove] = useState<[string, string] | null>(null);
  const [score, setScore] = useState<Score | null>(null);
  const [judged, setJudged] = useState<readonly JudgedMove[]>([]);
  const notes = useMemo(() => notesOf(judged), [judged]);
  const ply = plies[current]!;

  // the game screen's move list: its ply -1 is the start (our 0), null the last move
  const sans = useMemo(() => plies.slice(1).map((p) => p.san ?? ''), [plies]);
  const viewPly = current === last ? null : current - 1;
  const onView = (v: number | null) => setCurrent(v === null ? last : v + 1);
  useMoveKeys(sans.length, viewPly, onView);

  const top: Color = orientation === 'white' ? 'black' : 'white';
  const result = resultLine(game.winner, game.reason);
  return (
    <div className="replay">
      <div className="board-column">
        <PlayerLine player={game[top]} color={top} ply={ply} />
        <div className="board-with-eval">
          {analysing && <EvalBar score={score} fen={ply.fen} orientation={orientation} />}
          <Board fen={ply.fen} orientation={orientation} movableColor={null} lastMove={ply.lastMove} version={current} onMove={noMove}
            arrows={bestMove ? [bestMove] : undefined}
            label={`Position after ${current === 0 ? 'no moves' : `move ${Math.ceil(current / 2)}${current % 2 ? '' : '...'} ${ply.san}`}`} />
        </div>
        <PlayerLine player={game[top === 'white' ? 'black' : 'white']} color={top === 'white' ? 'black' : 'white'} ply={ply} />
      </div>
      <aside className="replay-side card">
        <p className="replay-result" data-testid="replay-result">{result}{game.rated ? ' · Rated' : ' · Casual'}</p>
        <MoveList sans={sans} viewPly={viewPly} onView={onView} notes={notes} />
        <div className="replay-tools">
          <button type="button" className="btn" onClick={() => setOrientation(orientation === 'white' ? 'black' : 'white')}>Flip board</button>
          <button type="button" className="btn" onClick={() => downloadPgn(`${game.id}.pgn`, game.pgn)}>Download PGN</button>
          <button type="button" className="btn" onClick={() => {
            void navigator.clipboard?.writeText(ply.fen).then(() => setCopied(true), () => setCopied(false));
          }}>{copied ? 'FEN copied' : 'Copy FEN'}</button>
          {!analysing && <button type="button" className="btn" onClick={() => setAnalysing(true)}>Analyse</button>}
          <ShareButton />
        </div>
        <input className="replay-fen" readOnly value={ply.fen} aria-label="FEN of the position shown" data-testid="replay-fen"
          onFocus={(e) => e.currentTarget.select()} />
      </aside>
      {analysing && (
        <Suspense fallback={<Spinner label="Loading Stockfish..." />}>
          <AnalysisPanel plies={plies} current={current} onView={setCurrent} onBestMove={setBestMove} onScore={setScore} onJudged={setJudged} />
        </Suspense>
      )}
    </div>
  );
}

export function GameReplay({ id }: { id: string }) {
  const watch = useWatchedGame(id);
  if (watch.state === 'asking') return <Page><Spinner label="Loading game..." /></Page>;
  // a live game ends on the live view, which gives way to the replay once the record is stored
  if (watch.state === 'live' && !watch.game.archived) return <Page><LiveGame game={watch.game} /></Page>;
  return <ArchivedGame id={id} />;
}

function ArchivedGame({ id }: { id: string }) {
  const game = useArchive(ARCHIVE_API.game(id), publicGameSchema);
  if (game.state === 'loading') return <Page><Spinner label="Loading game..." /></Page>;
  if (game.state === 'missing') return <Page><h1>Game not found</h1><p>No finished game has this address.</p></Page>;
  if (game.state === 'failed') return <Page><h1>Game unavailable</h1><p>{game.message}</p></Page>;
  return <Page><Replay game={game.data} /></Page>;
}

/**
 * The board's tools: flip, copy the FEN, download the PGN, board and piece themes, sound on/off.
 * Themes and sound are remembered on this device.
 */
import { useState } from 'react';
import { BOARD_THEMES, PIECE_SETS, readPreferences, type BoardTheme, type PieceSet } from '../../../machines/client/preferences';
import { setPreferences, usePreferences } from '../app/preferences';

const BOARD_LABELS: Record<BoardTheme, string> = { brown: 'Brown', blue: 'Blue', green: 'Green' };
const PIECE_LABELS: Record<PieceSet, string> = { cburnett: 'Cburnett', glyph: 'Glyph' };

export interface GameToolsProps {
  fen: string;
  /** the PGN of the game so far, built when asked */
  pgn: () => string;
  pgnFileName: string;
  onFlip: () => void;
}

/** Saves `text` as a PGN file called `name`. */
export function downloadPgn(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function GameTools({ fen, pgn, pgnFileName, onFlip }: GameToolsProps) {
  const [copied, setCopied] = useState<string | null>(null);
  const copyFen = () => {
    navigator.clipboard.writeText(fen).then(
      () => setCopied('FEN copied'),
      () => setCopied(`FEN: ${fen}`),
    );
  };
  return (
    <details className="game-tools">
      <summary>Board tools</summary>
      <div className="row">
        <button type="button" className="btn btn-small" onClick={onFlip}>Flip board</button>
        <button type="button" className="btn btn-small" onClick={copyFen}>Copy FEN</button>
        <button type="button" className="btn btn-small" onClick={() => downloadPgn(pgnFileName, pgn())}>Download PGN</button>
      </div>
      <p className="tools-note" role="status">{copied ?? ''}</p>
      <div className="row"><ThemeFields /></div>
    </details>
  );
}

/** The board colours and piece set, as chosen in the board tools and on the settings page. */
export function ThemeFields() {
  const prefs = usePreferences();
  return (
    <>
      <label className="select">Board
        <select aria-label="Board colours" value={prefs.board} onChange={(e) => setPreferences(readPreferences({ ...prefs, board: e.target.value }))}>
          {BOARD_THEMES.map((t) => <option key={t} value={t}>{BOARD_LABELS[t]}</option>)}
        </select>
      </label>
      <label className="select">Pieces
        <select aria-label="Piece set" value={prefs.pieces} onChange={(e) => setPreferences(readPreferences({ ...prefs, pieces: e.target.value }))}>
          {PIECE_SETS.map((t) => <option key={t} value={t}>{PIECE_LABELS[t]}</option>)}
        </select>
      </label>
    </>
  );
}

/** The sound toggle, kept in view next to the game's buttons. */
export function MuteToggle() {
  const { muted } = usePreferences();
  return (
    <button type="button" className="btn btn-icon" aria-pressed={muted} aria-label={muted ? 'Sound off' : 'Sound on'} title={muted ? 'Sound off' : 'Sound on'}
      onClick={() => setPreferences({ muted: !muted })}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="currentColor">
        <path d="M3 9v6h4l5 4V5L7 9H3z" />
        {muted
          ? <path d="M16 9.4 17.4 8l2.1 2.1L21.6 8 23 9.4l-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z" />
          : <path d="M16.5 12a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z" />}
      </svg>
    </button>
  );
}

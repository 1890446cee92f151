/**
 * The game screen's frame, as on lichess: the board as large as the viewport allows, the
 * opponent's name and clock above it and the player's below. On a wide screen the two bars, the
 * move list and the controls sit in a column beside the board; on a tall one they stack under
 * it. On a wide screen the frame fills the viewport below the header and never scrolls the page;
 * only the move list scrolls. On a tall one the bars, board, buttons and status fill the first
 * screen and the moves, tools and move field follow in the page, which scrolls. Notices appear
 * below the board, so they never move it.
 */
import type { ReactNode } from 'react';

export interface PlayLayoutProps {
  title: string;
  top: ReactNode;
  board: ReactNode;
  bottom: ReactNode;
  /** resign, draw, abort, ... */
  actions: ReactNode;
  /** the status line and notices */
  info: ReactNode;
  moves: ReactNode;
  /** for screen readers only, the latest last: the opponent's moves, the result, low time (a live region) */
  announcements?: readonly Announcement[];
}

/** One line of the live region; `id` tells two equal texts apart. */
export interface Announcement { id: number; text: string }

export function PlayLayout({ title, top, board, bottom, actions, info, moves, announcements = [] }: PlayLayoutProps) {
  return (
    <div className="play" data-testid="play">
      <h1 className="sr-only">{title}</h1>
      {/* a log: each line is added, so two things said at once (a move and low time) are both read */}
      <div className="sr-only" role="log" aria-live="polite" aria-label="Game announcements" data-testid="announcer">
        {announcements.map((a) => <p key={a.id}>{a.text}</p>)}
      </div>
      <div className="play-top">{top}</div>
      <div className="play-board">{board}</div>
      <div className="play-bottom">{bottom}</div>
      <div className="play-actions">{actions}</div>
      <div className="play-info">{info}</div>
      <div className="play-moves">{moves}</div>
    </div>
  );
}

/** A player's name (with an optional second line) and clock. */
export function PlayerBar({ name, detail, clock, testId }: { name: ReactNode; detail?: ReactNode; clock?: ReactNode; testId: string }) {
  return (
    <div className="player-bar" data-testid={testId}>
      <div className="player-bar-name">
        <strong>{name}</strong>
        {detail && <span className="player-bar-detail">{detail}</span>}
      </div>
      {clock}
    </div>
  );
}

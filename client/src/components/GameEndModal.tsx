import type { ReactNode } from 'react';
import { Modal } from './Modal';

/** The line under the title: the score ("0-1"), or the game's closing words (set in italics). */
export type EndLine = { score: string } | { message: string };

export interface GameEndModalProps {
  /** who won, as the screen says it: "Victory!", "Black Wins!", "Game Aborted" */
  title: string;
  line?: EndLine;
  /** what went wrong, shown first: the game ended on an error */
  error?: string | null;
  /** the reason as "(Reason: Checkmate)" says it; null where there is none to give (an aborted game) */
  reason: string | null;
  /** lines after the reason, such as the rating change */
  children?: ReactNode;
  /** what the player can do next; a Close button follows them */
  buttons: ReactNode;
  onClose: () => void;
}

/** The dialog at a game's end, the same on every screen that plays one: the outcome, its reason, and what next. */
export function GameEndModal({ title, line, error, reason, children, buttons, onClose }: GameEndModalProps) {
  return (
    <Modal title={title} labelledBy="end-title" onClose={onClose}>
      {error && <p className="error">{error}</p>}
      {line && <EndLineText line={line} />}
      {reason !== null && <p className="end-reason">(Reason: {reason})</p>}
      {children}
      <div className="stack">
        {buttons}
        <button type="button" className="btn btn-link" onClick={onClose}>Close</button>
      </div>
    </Modal>
  );
}

function EndLineText({ line }: { line: EndLine }) {
  return 'score' in line
    ? <p className="end-result" data-testid="end-result">{line.score}</p>
    : <p className="end-message">{line.message}</p>;
}

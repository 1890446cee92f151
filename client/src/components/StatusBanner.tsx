import type { StatusTone } from '../../../machines/client/playStatus';

/** The game's status line: green on the player's turn, red in check, grey once the game is over. */
export function StatusBanner({ text, tone }: { text: string; tone: StatusTone }) {
  return (
    <div className={`status-banner status-${tone}`} role="status" aria-live="polite" data-testid="status-banner">
      {text}
    </div>
  );
}

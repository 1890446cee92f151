/**
 * The pools of the multiplayer screen, as lichess's quick-pairing grid: one tile per time control
 * ("3+2", and its speed), 10+0 first. Choosing a tile selects its pool and searches in it at once.
 */
import { DEFAULT_TIME_CONTROL, POOLS, SPEED_NAMES, sameTimeControl, speedOf, timeControlKey, timeControlName, timeControlText, type TimeControl } from '../../../machines/game/timeControl';

/** `selected`: the chosen tile, none when null (the AI's set-up offers "no clock" beside them). */
export function PoolGrid({ selected, onPick, disabled }: { selected: TimeControl | null; onPick: (tc: TimeControl) => void; disabled: boolean }) {
  return (
    <div className="pool-grid" role="group" aria-label="Time controls">
      {POOLS.map((tc) => (
        <button
          key={timeControlKey(tc)}
          type="button"
          className={`pool${selected && sameTimeControl(tc, selected) ? ' pool-selected' : ''}`}
          aria-pressed={selected !== null && sameTimeControl(tc, selected)}
          data-pool={timeControlText(tc)}
          disabled={disabled}
          onClick={() => onPick(tc)}
        >
          <span className="pool-clock">{timeControlText(tc)}</span>
          <span className="pool-speed">{SPEED_NAMES[speedOf(tc)]}</span>
        </button>
      ))}
    </div>
  );
}

/** The panel's line for a pool: the spec's sentence for the 10-minute game, the time control and speed for the others. */
export function poolSentence(tc: TimeControl): string {
  if (sameTimeControl(tc, DEFAULT_TIME_CONTROL)) return 'Play a 10-minute chess game against another player.';
  return `Play a ${timeControlName(tc)} game against another player.`;
}

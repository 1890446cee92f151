/**
 * The options of a custom game (lichess's "create a game" form): initial time and increment from
 * lichess's lists, rated or casual (rated only for a signed-in player), and the creator's colour.
 * Used by the lobby, "Challenge a friend" and a profile's "Challenge" button.
 */
import { useState } from 'react';
import type { CustomGame } from '../../../machines/protocol/messages';
import { CUSTOM_INCREMENT_SECONDS, CUSTOM_INITIAL_SECONDS, timeControlName, timeControlText } from '../../../machines/game/timeControl';

const COLORS: { value: CustomGame['color']; label: string }[] = [
  { value: 'white', label: 'White' },
  { value: 'random', label: 'Random' },
  { value: 'black', label: 'Black' },
];

export const DEFAULT_CUSTOM_GAME: CustomGame = { timeControl: { initial: 300, increment: 3 }, rated: false, color: 'random' };

export function CustomGameForm({ signedIn, disabled, actions }: {
  signedIn: boolean;
  disabled: boolean;
  /** the form's buttons: each is given the options chosen */
  actions: { label: string; onPick: (options: CustomGame) => void; primary?: boolean; testId?: string }[];
}) {
  const [options, setOptions] = useState<CustomGame>(DEFAULT_CUSTOM_GAME);
  const tc = options.timeControl;
  const rated = options.rated && signedIn;
  return (
    <div className="custom-game" data-testid="custom-game-form">
      <div className="custom-row">
        <label>
          Minutes per side{' '}
          <select value={tc.initial} data-testid="custom-minutes"
            onChange={(e) => setOptions({ ...options, timeControl: { ...tc, initial: Number(e.target.value) } })}>
            {CUSTOM_INITIAL_SECONDS.map((s) => <option key={s} value={s}>{timeControlText({ initial: s, increment: 0 }).replace(/\+0$/, '')}</option>)}
          </select>
        </label>
        <label>
          Increment in seconds{' '}
          <select value={tc.increment} data-testid="custom-increment"
            onChange={(e) => setOptions({ ...options, timeControl: { ...tc, increment: Number(e.target.value) } })}>
            {CUSTOM_INCREMENT_SECONDS.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
      </div>
      <p className="custom-name" data-testid="custom-time-control">{timeControlName(tc)}</p>
      <div className="custom-row" role="radiogroup" aria-label="Rated or casual">
        <label><input type="radio" name="mode" checked={!rated} onChange={() => setOptions({ ...options, rated: false })} /> Casual</label>
        <label title={signedIn ? undefined : 'Sign in to play rated games'}>
          <input type="radio" name="mode" checked={rated} disabled={!signedIn} onChange={() => setOptions({ ...options, rated: true })} /> Rated
        </label>
        {!signedIn && <span className="hint">Rated games are for signed-in players.</span>}
      </div>
      <div className="custom-row" role="radiogroup" aria-label="Your colour">
        {COLORS.map((c) => (
          <label key={c.value}>
            <input type="radio" name="color" checked={options.color === c.value} onChange={() => setOptions({ ...options, color: c.value })} /> {c.label}
          </label>
        ))}
      </div>
      <div className="custom-row">
        {actions.map((a) => (
          <button key={a.label} type="button" className={`btn ${a.primary ? 'btn-primary' : 'btn-secondary'}`} disabled={disabled}
            data-testid={a.testId} onClick={() => a.onPick({ ...options, rated })}>{a.label}</button>
        ))}
      </div>
    </div>
  );
}

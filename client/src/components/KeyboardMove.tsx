/**
 * The board's keyboard alternative (lichess's "keyboard move"): a labelled text field under the
 * board where the player types a move in SAN ("Nf3", "exd5", "O-O", "e8=Q") or as squares
 * ("e2e4"). A legal move is played as if it had been made on the board; anything else is
 * refused with a message and changes nothing.
 */
import { useState, type FormEvent } from 'react';
import { resolveTypedMove, type TypedMove } from '../../../machines/client/engine';

export function KeyboardMove({ fen, enabled, onMove }: { fen: string; enabled: boolean; onMove: (move: TypedMove) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!enabled || !text.trim()) return;
    const move = resolveTypedMove(fen, text);
    if (!move) {
      setError(`"${text.trim()}" is not a legal move here.`);
      return;
    }
    setError(null);
    setText('');
    onMove(move);
  };
  return (
    <form className="keyboard-move" onSubmit={submit}>
      <label htmlFor="keyboard-move-input">Type your move</label>
      <input
        id="keyboard-move-input"
        type="text"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        placeholder={enabled ? 'e.g. e4, Nf3, O-O, e2e4' : 'Wait for your turn'}
        readOnly={!enabled}
        aria-disabled={!enabled}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={12}
        aria-describedby="keyboard-move-error"
      />
      <p id="keyboard-move-error" className="keyboard-move-error" role="alert" aria-live="assertive">{error ?? ''}</p>
    </form>
  );
}

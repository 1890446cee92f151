/**
 * Resign in two steps, as on lichess: the first click asks, the second resigns. While it asks,
 * the screen hides its other game buttons (Offer Draw, Leave) and the cancel is an icon, so the
 * question takes the room of the buttons it replaces: the row does not wrap and push the move
 * list down.
 */
export function ResignButton({ asking, onAsk, onResign, disabled }: { asking: boolean; onAsk: (asking: boolean) => void; onResign: () => void; disabled?: boolean }) {
  if (!asking) return <button type="button" className="btn btn-danger" onClick={() => onAsk(true)} disabled={disabled}>Resign</button>;
  return (
    <>
      <button type="button" className="btn btn-danger" onClick={() => { onAsk(false); onResign(); }} disabled={disabled}>Confirm Resign</button>
      <button type="button" className="btn btn-secondary btn-icon" onClick={() => onAsk(false)} aria-label="Keep Playing" title="Keep Playing">✕</button>
    </>
  );
}

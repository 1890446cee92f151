/** Resign in two steps, as on lichess: the first click asks, the second resigns. */
import { useState } from 'react';

export function ResignButton({ onResign, disabled }: { onResign: () => void; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" className="btn btn-danger" onClick={() => setAsking(true)} disabled={disabled}>Resign</button>;
  return (
    <>
      <button type="button" className="btn btn-danger" onClick={() => { setAsking(false); onResign(); }} disabled={disabled}>Confirm Resign</button>
      <button type="button" className="btn btn-secondary" onClick={() => setAsking(false)}>Keep Playing</button>
    </>
  );
}

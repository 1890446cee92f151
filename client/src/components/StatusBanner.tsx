/** The status banner: green normally, red when the text contains "Check!"; grey variant for a finished game. */
export function StatusBanner({ text, grey }: { text: string; grey?: boolean }) {
  const tone = grey ? 'banner-grey' : text.includes('Check!') ? 'banner-red' : 'banner-green';
  return (
    <div className={`status-banner ${tone}`} role="status" aria-live="polite" data-testid="status-banner">
      {text}
    </div>
  );
}

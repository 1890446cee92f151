export function Spinner({ label, small }: { label?: string; small?: boolean }) {
  return (
    <div className={small ? 'spinner-inline' : 'spinner-block'} role="status" aria-live="polite">
      <span className={small ? 'spinner spinner-sm' : 'spinner'} aria-hidden="true" />
      {label && <span>{label}</span>}
    </div>
  );
}

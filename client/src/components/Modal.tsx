import { useEffect, useRef, type ReactNode } from 'react';

/** An accessible modal dialog; focus moves into it when it opens. */
export function Modal({ title, children, onClose, labelledBy }: { title: ReactNode; children: ReactNode; onClose?: () => void; labelledBy?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>('button, [href], input');
    first?.focus();
  }, []);
  const id = labelledBy ?? 'modal-title';
  return (
    <div className="modal-backdrop" onKeyDown={(e) => { if (e.key === 'Escape' && onClose) onClose(); }}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={id} ref={ref}>
        <h2 id={id}>{title}</h2>
        {children}
      </div>
    </div>
  );
}

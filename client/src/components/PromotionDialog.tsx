import type { PromotionPiece, Color } from '../../../machines/protocol/messages';
import { Modal } from './Modal';

const CHOICES: { piece: PromotionPiece; name: string; role: string }[] = [
  { piece: 'q', name: 'Queen', role: 'queen' },
  { piece: 'r', name: 'Rook', role: 'rook' },
  { piece: 'n', name: 'Knight', role: 'knight' },
  { piece: 'b', name: 'Bishop', role: 'bishop' },
];

/**
 * The piece images come from chessground's stylesheet, which draws `<piece class="queen white">`
 * inside `.cg-wrap`. React warns about unknown tags, so the element is made by the DOM.
 */
function drawPiece(host: HTMLSpanElement | null, className: string): void {
  if (!host) return;
  const piece = host.firstElementChild ?? host.appendChild(document.createElement('piece'));
  piece.className = className;
}

/** "Choose promotion piece:" with queen, rook, knight and bishop. */
export function PromotionDialog({ color, onChoose, onCancel }: { color: Color; onChoose: (p: PromotionPiece) => void; onCancel: () => void }) {
  return (
    <Modal title="Choose promotion piece:" onClose={onCancel} labelledBy="promotion-title">
      <div className="promotion-choices cg-wrap">
        {CHOICES.map((c) => (
          <button key={c.piece} type="button" className="promotion-choice" onClick={() => onChoose(c.piece)} aria-label={c.name}>
            <span className="promotion-piece" ref={(el) => drawPiece(el, `${c.role} ${color}`)} aria-hidden="true" />
          </button>
        ))}
      </div>
      <button type="button" className="btn btn-secondary" onClick={onCancel}>Cancel</button>
    </Modal>
  );
}

/**
 * The chess board: @lichess-org/chessground with its pieces and boards drawn by the bundled
 * stylesheets (no outside host). Legal destinations come from machines/chess; opponent moves
 * animate over 300 ms; drags start after 5 px. A king may castle by going onto its own rook.
 * With `premoveColor` set the player may queue one move while the opponent thinks: it is played
 * the moment the position comes back with the player to move, and dropped if it is illegal then;
 * a right click cancels it. Premoves can be turned off in the settings; so can, on a phone, the
 * confirmation a board move then waits for (Confirm plays it, Cancel puts the piece back).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import type { Key } from '@lichess-org/chessground/types';
import '@lichess-org/chessground/assets/chessground.base.css';
import '@lichess-org/chessground/assets/chessground.cburnett.css';
import type { Color } from '../../../machines/protocol/messages';
import { asKingMove, boardDests, positionOf } from '../../../machines/client/engine';
import { usePreferences } from '../app/preferences';

/** A phone: a narrow screen or a finger for a pointer (where a slip plays the wrong square). */
const PHONE_QUERY = '(max-width: 600px), (pointer: coarse)';
const onPhone = () => typeof matchMedia === 'function' && matchMedia(PHONE_QUERY).matches;

export const ANIMATION_MS = 300;
export const DRAG_THRESHOLD_PX = 5;

export interface BoardProps {
  fen: string;
  orientation: Color;
  /** the colour the user may move now, or null when the board is read-only */
  movableColor: Color | null;
  /** the player's colour while the opponent is to move and a premove may be queued */
  premoveColor?: Color | null;
  lastMove: [string, string] | null;
  /** changes force a redraw from `fen` (e.g. after an illegal drop) */
  version: number;
  onMove: (from: string, to: string) => void;
  label: string;
  /** arrows drawn by the app (e.g. the engine's best move), not by the user */
  arrows?: readonly [string, string][];
}

function configFor(p: BoardProps, premoves: boolean): Config {
  const game = positionOf(p.fen);
  const turn = game.turn();
  const canMove = p.movableColor !== null && p.movableColor === turn;
  const premove = premoves && !canMove && p.premoveColor != null && p.premoveColor !== turn;
  return {
    fen: p.fen,
    orientation: p.orientation,
    turnColor: turn,
    check: game.checkedKingSquare() ? turn : false,
    lastMove: p.lastMove ? (p.lastMove as Key[]) : undefined,
    movable: {
      free: false,
      color: canMove ? turn : premove ? p.premoveColor ?? undefined : undefined,
      dests: canMove ? (boardDests(p.fen) as Map<Key, Key[]>) : new Map(),
      showDests: true,
    },
    premovable: { enabled: premove || (premoves && canMove) },
  };
}

export function Board(props: BoardProps) {
  const el = useRef<HTMLDivElement>(null);
  const api = useRef<Api | null>(null);
  const prefs = usePreferences();
  const latest = useRef({ props, prefs });
  latest.current = { props, prefs };
  /** a move made on a phone with confirmation on, waiting for Confirm or Cancel */
  const [unconfirmed, setUnconfirmed] = useState<{ from: string; to: string } | null>(null);
  /** the move handed to the app early, so the deferred chessground callback skips it */
  const handedOver = useRef<string | null>(null);
  /** the board placement as the app last set it */
  const boardFen = useRef(props.fen.split(' ')[0]);

  useEffect(() => {
    if (!el.current) return;
    const moved = (from: string, to: string) => {
      performance.mark('board:user-move');
      const { props: p, prefs: pr } = latest.current;
      const move = asKingMove(p.fen, from, to);
      if (pr.confirmMovesOnPhone && onPhone()) setUnconfirmed(move);
      else p.onMove(move.from, move.to);
    };
    const cg = Chessground(el.current, {
      ...configFor(latest.current.props, latest.current.prefs.premoves),
      coordinates: true,
      autoCastle: true,
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: ANIMATION_MS },
      draggable: { enabled: true, distance: DRAG_THRESHOLD_PX, showGhost: true },
      selectable: { enabled: true },
      drawable: { enabled: false },
      movable: {
        ...configFor(latest.current.props, latest.current.prefs.premoves).movable,
        events: {
          // chessground calls this in a setTimeout, i.e. after it has painted the move; the
          // listeners below usually hand the move over earlier, in the input event itself
          after: (from, to) => {
            if (handedOver.current === `${from}${to}`) {
              handedOver.current = null;
              return;
            }
            handedOver.current = null;
            moved(from, to);
          },
        },
      },
    });
    api.current = cg;
    // Runs after chessground's own mousedown/mouseup/touch handlers (registered earlier, and
    // these listen on the document): if the user just moved, hand the move to the app now so the
    // app's state (turn, clocks, status) is drawn in the same frame as the piece.
    const handOver = () => {
      const lm = cg.state.lastMove;
      if (!lm || lm.length !== 2 || handedOver.current !== null) return;
      if (cg.getFen() === boardFen.current) return; // nothing moved since the app last set the board
      handedOver.current = `${lm[0]}${lm[1]}`;
      boardFen.current = cg.getFen();
      moved(lm[0], lm[1]);
    };
    const inputEvents = ['mousedown', 'mouseup', 'touchstart', 'touchend'] as const;
    for (const type of inputEvents) document.addEventListener(type, handOver);
    const cancelPremove = (e: Event) => {
      e.preventDefault();
      cg.cancelPremove();
    };
    el.current.addEventListener('contextmenu', cancelPremove);
    const host = el.current;
    // chessground watches its own size (a ResizeObserver on the wrap): a second observer that
    // rebuilt the board on resize made Chromium report "ResizeObserver loop completed"
    return () => {
      for (const type of inputEvents) document.removeEventListener(type, handOver);
      host.removeEventListener('contextmenu', cancelPremove);
      cg.destroy();
      api.current = null;
    };
  }, []);

  // layout effect: the board follows the app's state in the same frame as the rest of the screen
  useLayoutEffect(() => {
    const cg = api.current;
    if (!cg) return;
    cg.set(configFor(props, prefs.premoves));
    boardFen.current = props.fen.split(' ')[0];
    setUnconfirmed(null);
    performance.mark('board:synced');
    // a queued premove is played as soon as the player is to move (chessground drops it if illegal)
    if (props.movableColor !== null && props.movableColor === positionOf(props.fen).turn()) cg.playPremove();
    else if (props.premoveColor == null) cg.cancelPremove();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.fen, props.orientation, props.movableColor, props.premoveColor, props.lastMove?.[0], props.lastMove?.[1], props.version, prefs.premoves]);

  const confirm = () => {
    if (!unconfirmed) return;
    setUnconfirmed(null);
    props.onMove(unconfirmed.from, unconfirmed.to);
  };
  const cancel = () => {
    setUnconfirmed(null);
    const cg = api.current;
    if (!cg) return;
    cg.set(configFor(props, prefs.premoves));
    boardFen.current = props.fen.split(' ')[0];
  };

  const arrowKey = (props.arrows ?? []).map((a) => a.join('')).join(' ');
  useLayoutEffect(() => {
    api.current?.setAutoShapes((props.arrows ?? []).map(([orig, dest]) => ({ orig: orig as Key, dest: dest as Key, brush: 'paleBlue' })));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [arrowKey]);

  return (
    <div className="board-frame">
      <div ref={el} className="board" role="img" tabIndex={-1} aria-label={props.label} data-testid="board" data-orientation={props.orientation} />
      {unconfirmed && (
        <div className="move-confirm" role="group" aria-label={`Confirm the move ${unconfirmed.from}-${unconfirmed.to}`}>
          <button type="button" className="btn btn-primary" onClick={confirm}>Confirm {unconfirmed.from}-{unconfirmed.to}</button>
          <button type="button" className="btn btn-secondary" onClick={cancel}>Cancel</button>
        </div>
      )}
    </div>
  );
}

/** Answers to a socket: a message, or a refusal counted in the metrics and logged with its reason. */
import type { Logger } from 'pino';
import { REPLACED_CLOSE_CODE } from '../../machines/protocol/closeCodes';
import type { ErrorCode, ServerMessage } from '../../machines/protocol/messages';
import type { ServerMetrics } from '../http/metrics';
import type { Hub, WS } from './hub';

/** refusals answered by closing the socket (1008, 1009), not with an error message */
export type ClosingRefusal = 'rate_limit' | 'oversize';
const isClosingRefusal = (reason: string): reason is ClosingRefusal => reason === 'rate_limit' || reason === 'oversize';

const REPLACED_TEXT = 'This player connected from another tab or device; this connection is closed.';

export class Replies {
  constructor(
    private readonly hub: Hub,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
  ) {}

  send(ws: WS, msg: ServerMessage): void {
    this.hub.sendWs(ws, JSON.stringify(msg));
  }

  /** Counts and logs a refused message; answers it with an error unless the socket is being closed for it. */
  reject(ws: WS, reason: ErrorCode | ClosingRefusal, message: string, reply = true, gameId?: string): void {
    const answer = reply && !isClosingRefusal(reason) ? ({ type: 'error', code: reason, message, ...(gameId ? { gameId } : {}) } as const) : null;
    this.refuse(ws, reason, message, answer);
  }

  /** Counts and logs a refused message, answered with `answer` (none: the socket is being closed for it). */
  refuse(ws: WS, reason: ErrorCode | ClosingRefusal, detail: string, answer: ServerMessage | null): void {
    this.metrics.messagesRejected.inc({ reason });
    this.log.info({ playerId: ws.getUserData().playerId, reason, detail }, 'message rejected');
    if (answer) this.send(ws, answer);
  }

  /** A socket whose seat a newer socket of its player took (here or on another node): told, then closed without a disconnection. */
  closeReplaced(ws: WS): void {
    const data = ws.getUserData();
    data.replaced = true;
    this.send(ws, { type: 'error', code: 'replaced', message: REPLACED_TEXT });
    data.closing = true;
    ws.end(REPLACED_CLOSE_CODE, 'replaced by a newer connection');
  }
}

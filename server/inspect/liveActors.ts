/**
 * The actors a stream of inspection messages has announced and not yet ended, each with its
 * game and its latest snapshot: what the relay sends a viewer who joins while they run, and how
 * it tells which game a message belongs to. Pure: it reads messages and answers questions.
 */
import { z } from 'zod';

/** The parts of an inspection message (@statelyai/inspect's StatelyInspectionEvent) the relay reads. */
const inspectionMessage = z.object({
  type: z.enum(['@xstate.actor', '@xstate.event', '@xstate.snapshot']),
  sessionId: z.string().min(1),
  parentId: z.string().nullish(),
  snapshot: z.object({ status: z.string().optional(), context: z.unknown().optional() }).optional(),
  event: z.object({ type: z.string() }).optional(),
});
type InspectionMessage = z.infer<typeof inspectionMessage>;

/** Where a message goes: to every viewer, and to the viewers of `gameId` when it is a game's. */
export interface Routed {
  gameId: string | null;
}

interface LiveActor {
  gameId: string | null;
  registration: string;
  snapshot: string | null;
}

/** The game an actor's context names, if any (a game's and an AI game's context has `gameId`). */
function gameOfContext(context: unknown): string | null {
  if (typeof context !== 'object' || context === null || !('gameId' in context)) return null;
  return typeof context.gameId === 'string' ? context.gameId : null;
}

/** An actor has ended once its status is no longer active, or once it was told to stop. */
function ends(message: InspectionMessage): boolean {
  if (message.type !== '@xstate.snapshot') return false;
  return (message.snapshot?.status !== undefined && message.snapshot.status !== 'active') || message.event?.type === 'xstate.stop';
}

export class LiveActors {
  private readonly actors = new Map<string, LiveActor>();

  /** Running actors now. */
  get size(): number {
    return this.actors.size;
  }

  /**
   * Takes one message as it arrived (JSON text); returns where it goes, or an error saying why
   * it is not an inspection message (it then changes nothing).
   */
  record(text: string): Routed | { error: string } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { error: 'not JSON' };
    }
    const result = inspectionMessage.safeParse(parsed);
    if (!result.success) return { error: `not an inspection message (${result.error.issues[0]?.message ?? 'invalid'})` };
    const message = result.data;
    if (message.type === '@xstate.actor') {
      const parent = message.parentId ? this.actors.get(message.parentId) : undefined;
      const gameId = gameOfContext(message.snapshot?.context) ?? parent?.gameId ?? null;
      this.actors.set(message.sessionId, { gameId, registration: text, snapshot: null });
      return { gameId };
    }
    const actor = this.actors.get(message.sessionId);
    if (!actor) return { gameId: null };
    if (ends(message)) this.actors.delete(message.sessionId);
    else if (message.type === '@xstate.snapshot') actor.snapshot = text;
    return { gameId: actor.gameId };
  }

  /**
   * What a viewer joining now is sent first: each running actor's registration, then its latest
   * snapshot, oldest actor first; only the actors of `gameId` when given.
   */
  catchUp(gameId: string | null): string[] {
    const out: string[] = [];
    for (const actor of this.actors.values()) {
      if (gameId !== null && actor.gameId !== gameId) continue;
      out.push(actor.registration);
      if (actor.snapshot) out.push(actor.snapshot);
    }
    return out;
  }
}

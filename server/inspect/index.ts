/**
 * Inspecting the server's actors with the Stately inspector (docs/inspector.md): the matchmaking
 * pool, every live game and every AI game's lifecycle machine stream their registrations, events
 * and snapshots through @statelyai/inspect's WebSocket inspector, to the relay this node starts
 * (INSPECT=1) or to one elsewhere (INSPECT=ws://host:port/publish, for a site of several nodes).
 * Snapshots are sent small (smallSnapshot.ts). Loaded only when inspection is asked for.
 */
import type { Logger } from 'pino';
import type { InspectionEvent, Observer, Snapshot } from 'xstate';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { startRelay, type Relay } from './relay';
import { smallSnapshot } from './smallSnapshot';
import type { InspectTarget } from '../config/server';

export type { InspectTarget };

export interface Inspection {
  /** every server actor's `inspect` option */
  inspect: Observer<InspectionEvent>;
  /** the relay this node started, if it did */
  relay: Relay | null;
  close(): void;
}

/** A registration with the actor's snapshot made small (the inspector sends the actor's whole snapshot). */
function withSmallSnapshot(event: StatelyInspectionEvent): StatelyInspectionEvent {
  return event.type === '@xstate.actor' ? { ...event, snapshot: smallSnapshot(event.snapshot) } : event;
}

/**
 * `observer`, given each snapshot already made small: the inspector serialises (and copies) the
 * snapshot of every event it is given, so a game's history would be copied at each move only to
 * be dropped.
 */
function smallSnapshots(observer: Observer<InspectionEvent>): Observer<InspectionEvent> {
  return {
    next(event) {
      if (event.type !== '@xstate.snapshot') return observer.next?.(event);
      // the same status, output and error as the actor's snapshot: a snapshot of the same kind
      observer.next?.({ ...event, snapshot: smallSnapshot(event.snapshot) as Snapshot<unknown> });
    },
  };
}

export async function startInspection(target: InspectTarget, logger: Logger): Promise<Inspection> {
  const relay = 'relay' in target ? await startRelay({ ...target.relay, logger }) : null;
  const url = relay ? relay.publishUrl : (target as { url: string }).url;
  const { createWebSocketInspector } = await import('@statelyai/inspect');
  const inspector = createWebSocketInspector({ url, serialize: withSmallSnapshot });
  if (relay) {
    logger.info({ url: relay.url, publish: relay.publishUrl }, `XState inspector: open ${relay.url} in a browser (one game: ${relay.url}?game=<id>)`);
  } else {
    logger.info({ url }, 'XState inspector: the actors stream to the relay at this address');
  }
  return {
    inspect: smallSnapshots(inspector.inspect),
    relay,
    close() {
      inspector.stop();
      relay?.close();
    },
  };
}

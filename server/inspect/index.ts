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

/** How long start-up waits for the inspector's socket to the relay of this node. */
const PUBLISHER_WAIT_MS = 10_000;

async function relayFor(target: InspectTarget, logger: Logger): Promise<{ relay: Relay | null; url: string }> {
  if ('url' in target) return { relay: null, url: target.url };
  const relay = await startRelay({ ...target.relay, logger });
  return { relay, url: relay.publishUrl };
}

export async function startInspection(target: InspectTarget, logger: Logger): Promise<Inspection> {
  const { relay, url } = await relayFor(target, logger);
  const { createWebSocketInspector } = await import('@statelyai/inspect');
  const inspector = createWebSocketInspector({ url, serialize: withSmallSnapshot });
  if (relay) {
    // until its socket is open the inspector keeps only its last 200 messages: the games resumed
    // at start are created once it is
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([relay.publisherJoined.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), PUBLISHER_WAIT_MS)))]);
    clearTimeout(timer);
    if (!waited) logger.warn({ publish: relay.publishUrl, waitedMs: PUBLISHER_WAIT_MS }, 'XState inspector: its socket to the relay is not open yet; the first actors may be missing from the relay');
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

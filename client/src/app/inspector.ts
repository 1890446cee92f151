/**
 * XState inspector: `?inspect` in the URL (or VITE_INSPECT=1 at build time)
 * attaches @statelyai/inspect's browser inspector to every client actor.
 * The inspector module is loaded on demand so it never weighs on the main bundle.
 */
import type { InspectionEvent, Observer } from 'xstate';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);
let inspect: Inspect | undefined;

export function inspectorRequested(): boolean {
  if (import.meta.env.VITE_INSPECT === '1') return true;
  return typeof location !== 'undefined' && new URLSearchParams(location.search).has('inspect');
}

export async function startInspector(): Promise<void> {
  if (!inspectorRequested()) return;
  try {
    const { createBrowserInspector } = await import('@statelyai/inspect');
    inspect = createBrowserInspector().inspect;
  } catch (err) {
    console.error('could not start the XState inspector', err);
  }
}

/** Pass as `inspect` option to createActor/useActorRef. */
export function getInspect(): Inspect | undefined {
  return inspect;
}

/**
 * XState inspector: `?inspect` in the URL attaches @statelyai/inspect's browser inspector to
 * every client actor, in development mode only: `npm run dev`, or a server started with
 * NODE_ENV=development, which answers DEV_INSPECTOR_PATH and sends the security headers that let
 * the inspector's window talk to the page (docs/inspector.md). The inspector module is loaded on
 * demand so it never weighs on the main bundle.
 */
import type { InspectionEvent, Observer } from 'xstate';
import { DEV_INSPECTOR_PATH } from '../../../machines/protocol/constants';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);
let inspect: Inspect | undefined;

export function inspectorRequested(): boolean {
  return typeof location !== 'undefined' && new URLSearchParams(location.search).has('inspect');
}

/** Whether the server is in development mode (Vite's dev server passes the question on to it). */
async function inspectorAllowed(): Promise<boolean> {
  try {
    const res = await fetch(DEV_INSPECTOR_PATH, { cache: 'no-store' });
    // elsewhere the path is one of the page's routes: the page itself answers
    if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('application/json')) return false;
    const body: unknown = await res.json();
    return typeof body === 'object' && body !== null && 'inspector' in body && body.inspector === true;
  } catch {
    return false;
  }
}

export async function startInspector(): Promise<void> {
  if (!inspectorRequested()) return;
  if (!(await inspectorAllowed())) {
    console.info('The XState inspector (?inspect) is available in development mode only: npm run dev, or NODE_ENV=development.');
    return;
  }
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

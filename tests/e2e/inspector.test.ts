/**
 * The browser's machines in the Stately inspector, in real Chromium against the built site in
 * development mode (NODE_ENV=development): `?inspect` opens the inspector's window, which here is
 * a local page standing in for stately.ai/inspect and speaking its window protocol: it tells its
 * opener `@statelyai.connected`, then receives the client actors' registrations, events and
 * snapshots. The site's headers in this mode keep the window's link to the page; production's are
 * checked in site.test.ts and tests/server/securityHeaders.test.ts. The server relay's page speaks
 * the same protocol to the inspector in its frame.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { newContext, site, useSite } from './siteSession';
import pino from 'pino';
import WebSocket from 'ws';
import { STATELY_INSPECTOR_URL } from '../../server/inspect/bridgePage';
import { startRelay } from '../../server/inspect/relay';

/** The stand-in for the Stately inspector: the handshake, then every inspection message in window.__received. */
const INSPECTOR_PAGE = `<!doctype html><title>inspector</title><script>
window.__received = [];
addEventListener('message', (e) => { if (e.data && typeof e.data._version === 'string') window.__received.push(e.data); });
(window.opener || window.parent).postMessage({ type: '@statelyai.connected' }, '*');
</script>`;

interface Received {
  type: string;
  name?: string;
  sessionId: string;
  event?: { type: string };
}

useSite({ NODE_ENV: 'development', AI_ENABLED: '0' });

/** A new context in which the Stately inspector's address answers with the stand-in. */
async function inspectorContext(): Promise<BrowserContext> {
  const ctx = await newContext();
  await ctx.route(`${STATELY_INSPECTOR_URL}**`, (route) => route.fulfill({ contentType: 'text/html', body: INSPECTOR_PAGE }));
  return ctx;
}

const received = (inspector: Page) => inspector.evaluate('window.__received') as Promise<Received[]>;

describe('the browser machines in the XState inspector (development mode)', () => {
  it('lets the inspector window in: the opener policy allows popups and the inspector may be a frame', async () => {
    const res = await fetch(site().url);
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(res.headers.get('content-security-policy')).toContain(`frame-src 'self' ${new URL(STATELY_INSPECTOR_URL).origin}`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('?inspect: the inspector window says it is connected and receives the client machines, their events and snapshots', async () => {
    const ctx = await inspectorContext();
    const page = await ctx.newPage();
    const opened = ctx.waitForEvent('page', { timeout: 15_000 });
    // the guest page, then the multiplayer screen: the page stays the same (the app's own navigation)
    await page.goto(`${site().url}/guest?returnUrl=${encodeURIComponent('/chess/multiplayer')}&inspect`);
    const inspector = await opened;
    expect(inspector.url()).toBe(STATELY_INSPECTOR_URL);
    expect(await inspector.opener()).toBe(page);
    // the actors started at once: their registrations and what they were sent since
    await expect.poll(async () => (await received(inspector)).filter((m) => m.type === '@xstate.actor').map((m) => m.name), { timeout: 15_000 }).toEqual(
      expect.arrayContaining(['connection', 'identity']),
    );
    const connection = (await received(inspector)).find((m) => m.type === '@xstate.actor' && m.name === 'connection')!.sessionId;
    await expect.poll(async () => (await received(inspector)).some((m) => m.sessionId === connection && m.type === '@xstate.snapshot'), { timeout: 15_000 }).toBe(true);

    // the multiplayer screen's matchmaking machine and the events it is sent (the game's machine
    // runs on the game's own page, /game/:id, once a game starts)
    await page.getByRole('button', { name: 'Continue as Guest' }).click();
    await page.getByRole('button', { name: 'Find Match' }).click();
    await page.getByText('Finding opponent...').waitFor();
    await expect.poll(async () => (await received(inspector)).filter((m) => m.type === '@xstate.actor').map((m) => m.name), { timeout: 15_000 }).toEqual(
      expect.arrayContaining(['matchmaking']),
    );
    const matchmaking = (await received(inspector)).find((m) => m.type === '@xstate.actor' && m.name === 'matchmaking')!.sessionId;
    await expect.poll(async () => (await received(inspector)).filter((m) => m.sessionId === matchmaking && m.type === '@xstate.event').length, { timeout: 15_000 }).toBeGreaterThan(1);
  });
});

describe("the server relay's page (INSPECT=1)", () => {
  it('shows the inspector in a frame and, once it says it is connected, hands it the running actors and then the stream', async () => {
    const relay = await startRelay({ host: '127.0.0.1', port: 0, logger: pino({ level: 'silent' }) });
    const node = new WebSocket(relay.publishUrl);
    try {
      await new Promise((resolve, reject) => node.once('open', resolve).once('error', reject));
      const message = (type: string, extra: object) => JSON.stringify({ _version: '0.7.2', type, sessionId: 'x:1', ...extra });
      // an actor that runs before the page is opened
      node.send(message('@xstate.actor', { name: 'game g1', snapshot: { status: 'active', context: { gameId: 'g1', ply: 0 } } }));
      await expect.poll(() => relay.liveActors()).toBe(1);
      const ctx = await inspectorContext();
      const page = await ctx.newPage();
      await page.goto(`${relay.url}?game=g1`);
      const frame = () => page.frames().find((f) => f.url() === STATELY_INSPECTOR_URL);
      await expect.poll(() => frame()?.evaluate('window.__received.length'), { timeout: 15_000 }).toBe(1);
      node.send(message('@xstate.event', { event: { type: 'MOVE' } }));
      await expect.poll(async () => ((await frame()!.evaluate('window.__received')) as Received[]).map((m) => m.event?.type ?? m.type), { timeout: 15_000 }).toEqual([
        '@xstate.actor',
        'MOVE',
      ]);
    } finally {
      node.close();
      relay.close();
    }
  });
});

/**
 * The relay's page: the Stately inspector in a frame, fed the relay's messages once it has said
 * it is ready (its `@statelyai.connected` message; @statelyai/inspect's own relay does the same).
 * The page's query (`?game=<id>`) is passed on to the relay's socket, which then streams that
 * game's actors only.
 */

/** The Stately inspector's page (@statelyai/inspect's default). */
export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';

export function bridgePage(inspectorUrl: string = STATELY_INSPECTOR_URL): string {
  const origin = new URL(inspectorUrl).origin;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>XState inspector: chess</title>
<style>html, body, iframe { margin: 0; width: 100%; height: 100%; border: 0; display: block; }</style>
</head>
<body>
<iframe id="inspector" src="${inspectorUrl}"></iframe>
<script>
const inspector = document.getElementById('inspector');
const waiting = [];
let ready = false;
const show = (message) => inspector.contentWindow.postMessage(message, ${JSON.stringify(origin)});
addEventListener('message', (e) => {
  if (e.source !== inspector.contentWindow || !e.data || e.data.type !== '@statelyai.connected') return;
  ready = true;
  waiting.splice(0).forEach(show);
});
const relay = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/' + location.search);
relay.onmessage = (e) => {
  const message = JSON.parse(e.data);
  if (ready) show(message);
  else waiting.push(message);
};
</script>
</body>
</html>
`;
}

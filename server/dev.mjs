#!/usr/bin/env node
// `npm run dev`: the server under `tsx watch` (NODE_ENV=development, pretty logs) and the Vite
// dev server for the client (which proxies /socket, /auth, /rest to port 3000).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env, NODE_ENV: 'development' };
const children = [spawn('npx', ['tsx', 'watch', 'server/main.ts'], { stdio: 'inherit', env })];
if (existsSync('client/index.html')) children.push(spawn('npx', ['vite'], { stdio: 'inherit', env }));
else console.warn('dev: client/index.html does not exist yet; starting the server only');

const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => {
  stop();
  process.exitCode = code ?? 0;
});

/**
 * Global set-up of the tiers that start the server as a process of its own: every process those
 * tests start runs one bundle of the server built for the run (builds.ts), as `npm start` runs
 * dist/server/main.js. Started through tsx instead, each process compiled and loaded the
 * TypeScript sources again, about 0.7 s of CPU more per start.
 */
import type { TestProject } from 'vitest/node';
import { buildServerBundle } from './builds';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server bundle the tests' server processes run (see tests/support/serverBundle.ts). */
    serverEntry: string;
  }
}

export default function setup(project: TestProject): void {
  project.provide('serverEntry', buildServerBundle());
}

/**
 * Global set-up of the tiers that drive Chromium: the site is built once for the run, before any
 * of their files starts. Two of them run at once, and a build replaces dist/ under a running
 * server's feet.
 */
import { buildSite } from './builds';

export default function setup(): void {
  buildSite();
}

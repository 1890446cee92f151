/**
 * The browser tier's global set-up: the site is built once, before any of its files starts. Two of
 * them run at once, and a build replaces dist/ under a running server's feet.
 */
import { build } from './buildSite';

export default function setup(): void {
  build();
}

/** The repository's root, for tests that read its files or run its scripts. */
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');

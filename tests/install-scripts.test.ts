/**
 * Every dependency with an install script has been reviewed: package.json's `allowScripts`
 * approves or denies it (docs/operations.md says why each). A new one, or an upgrade that adds a
 * script, fails here until someone decides. npm older than 11 has no such review and runs every
 * script; there the check is skipped.
 */
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { ROOT } from './support/root';

const npmMajor = Number(execFileSync('npm', ['--version'], { encoding: 'utf8' }).split('.')[0]);

it.skipIf(npmMajor < 11)("no dependency's install script is left unreviewed", () => {
  const out = execFileSync('npm', ['install-scripts', 'ls'], { cwd: ROOT, encoding: 'utf8' });
  expect(out.trim()).toBe('No packages with unreviewed install scripts.');
});

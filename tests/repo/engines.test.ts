/**
 * The Node versions the project says it runs on (package.json `engines`) are ones every installed
 * package accepts, so `npm install` warns of no unsupported engine, and the Node running the
 * tests is one of them. Node 20 is what the machines here, CI and the Docker image run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root';

interface LockedPackage {
  engines?: { node?: string };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };

describe("the project's Node versions", () => {
  it('are accepted by every package the lock file installs, from the lowest one up', () => {
    const lowest = semver.minVersion(pkg.engines.node)!.version;
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => p.engines?.node && !semver.satisfies(lowest, p.engines.node))
      .map(([path, p]) => `${path} wants Node ${p.engines!.node}`);
    expect(refusing).toEqual([]);
  });

  it('include the Node running this', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});

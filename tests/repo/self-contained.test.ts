/**
 * The repository stands on its own: no code, comment, document or test refers to a file a
 * reader of the repository does not have (a specification, contract or notes file kept beside
 * the project while it was first built). What such a file said belongs in docs/ instead.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/root';

/**
 * The outside names, put together from parts so that this file names none of them itself and
 * is checked like every other file.
 */
const specName = ['SP', 'EC'].join('');
const contractsName = ['CONTR', 'ACTS'].join('');
const livePlayName = ['live', 'play'].join('-');
const compatName = ['supabase', 'compat'].join('-');
const sharedDir = ['sha', 'red'].join('');
const workDir = ['wo', 'rk'].join('');

/** Names of the outside files, and paths that can only lead outside the checkout. */
const OUTSIDE_REFERENCE = [
  `${specName}\\.md`,
  `\\b${specName}\\b`,
  `${contractsName}(\\.md)?\\b`,
  `${livePlayName}(\\.md)?`,
  `${compatName}(\\.md)?`,
  `${sharedDir}/(notes|data)`,
  `\\.\\./${sharedDir}\\b`,
  `/${workDir}/`,
].join('|');

/** Every tracked text file's lines that name something outside the repository. */
function outsideReferences(): string[] {
  try {
    const out = execFileSync('git', ['grep', '-n', '-I', '-E', OUTSIDE_REFERENCE, '--', '.'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return out.split('\n').filter(Boolean);
  } catch (e) {
    // git grep exits 1 when nothing matches
    if ((e as { status?: number }).status === 1) return [];
    throw e;
  }
}

describe('self-contained repository', () => {
  it('no tracked file refers to a file outside the repository', () => {
    expect(outsideReferences()).toEqual([]);
  });

  it('the pattern catches the kinds of reference that were removed, and not ordinary words', () => {
    const re = new RegExp(OUTSIDE_REFERENCE);
    const removed = [
      `see ${specName}.md section 9`,
      `(${specName} 4 "Identity")`,
      `${contractsName}.md §6`,
      `${livePlayName}.md: 30 s`,
      `../${sharedDir}/notes/${compatName}.md`,
      `/${workDir}/${sharedDir}/data/perft-suite.json`,
    ];
    for (const bad of removed) {
      expect(re.test(bad), bad).toBe(true);
    }
    for (const fine of ['const spec = resolveEngine()', 'the engine spec', 'docs/product.md, Constants', 'shared by the server']) {
      expect(re.test(fine), fine).toBe(false);
    }
  });
});

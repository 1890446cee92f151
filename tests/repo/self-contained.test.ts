/**
 * The repository stands on its own: no code, comment, document or test refers to a file a
 * reader of the repository does not have (a specification, contract or notes file kept beside
 * the project while it was first built). What such a file said belongs in docs/ instead.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Names of the outside files, and paths that can only lead outside the checkout. */
const OUTSIDE_REFERENCE = [
  String.raw`SPEC\.md`,
  String.raw`\bSPEC\b`,
  String.raw`CONTRACTS(\.md)?\b`,
  String.raw`live-play(\.md)?`,
  String.raw`supabase-compat(\.md)?`,
  String.raw`shared/(notes|data)`,
  String.raw`\.\./shared\b`,
  String.raw`/work/`,
].join('|');

const THIS_FILE = 'tests/repo/self-contained.test.ts';

/** Every tracked text file's lines that name something outside the repository. */
function outsideReferences(): string[] {
  try {
    const out = execFileSync('git', ['grep', '-n', '-I', '-E', OUTSIDE_REFERENCE, '--', '.', `:!${THIS_FILE}`], {
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
    for (const bad of ['see SPEC.md section 9', '(SPEC 4 "Identity")', 'CONTRACTS.md §6', 'live-play.md: 30 s', '../shared/notes/supabase-compat.md', '/work/shared/data/perft-suite.json']) {
      expect(re.test(bad), bad).toBe(true);
    }
    for (const fine of ['const spec = resolveEngine()', 'the engine spec', 'docs/product.md, Constants', 'shared by the server']) {
      expect(re.test(fine), fine).toBe(false);
    }
  });
});

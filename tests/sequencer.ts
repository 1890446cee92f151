/**
 * The order vitest starts test files in: its own (the tiers' groups in turn, the longest of the
 * last run first, or the largest when it has none), with the long files of tests/tiers.ts moved
 * to the front in the order that list gives, across the projects that share a group's workers.
 * So on a fresh clone, as in CI, none of them starts last and ends the group alone (the unit
 * tier's one long file, started after every integration file, once ended the first group 11 s
 * after the rest), and the CPU-bound ones start before those that mostly wait.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { longRank } from './tiers';

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ranked = (await super.sort(files)).map((spec) => ({ spec, rank: longRank(spec.moduleId) }));
    // Array.prototype.sort is stable: vitest's order stays within a rank
    const long = ranked.filter((r) => r.rank >= 0).sort((a, b) => a.rank - b.rank);
    return [...long, ...ranked.filter((r) => r.rank < 0)].map((r) => r.spec);
  }
}

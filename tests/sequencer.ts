/**
 * The order vitest starts test files in: its own (the tiers' groups in turn, the longest of the
 * last run first, or the largest when it has none), with the long files of tests/tiers.ts moved
 * to the front in the order that list gives, across the projects that share a group's workers.
 * So on a fresh clone, as in CI, none of them starts last and ends the group alone (the unit
 * tier's one long file, started after every integration file, once ended the first group 11 s
 * after the rest), and the background lanes start before those that mostly wait.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { longFirst } from './tiers.ts';

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longFirst(await super.sort(files), (spec) => spec.moduleId);
  }
}

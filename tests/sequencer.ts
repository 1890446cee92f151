/**
 * The order vitest starts test files in: its own (the tiers' groups in turn, the longest of the
 * last run first, or the largest when it has none), with the long files of tests/tiers.ts moved
 * to the front, across the projects that share a group's workers, so that on a fresh clone none
 * starts last and ends the group alone (the unit tier's one long file, started after every
 * integration file, once ended the first group 11 s after the rest).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { isLong } from './tiers';

const long = (spec: TestSpecification) => isLong(spec.moduleId);

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(long), ...sorted.filter((spec) => !long(spec))];
  }
}

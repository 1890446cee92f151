/**
 * The order vitest starts test files in: its own (the tiers' groups in turn, each project's files
 * in one run, the longest of the last run first, or the largest when it has none), with the long
 * files of tests/tiers.ts moved to the front of their project, so that on a fresh clone they do
 * not start last and end their tier alone.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { isLong } from './tiers';

const long = (spec: TestSpecification) => isLong(spec.moduleId);

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const order: TestSpecification[] = [];
    let run: TestSpecification[] = [];
    const flush = () => {
      order.push(...run.filter(long), ...run.filter((spec) => !long(spec)));
      run = [];
    };
    for (const spec of sorted) {
      if (run.length > 0 && run[0].project !== spec.project) flush();
      run.push(spec);
    }
    flush();
    return order;
  }
}

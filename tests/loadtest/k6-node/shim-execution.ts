/** Stand-in for `k6/execution`: the VU's numbers, with idInTest unique across a split run. */
import { idInTest, runtime } from './runtime';

const g = globalThis as unknown as { __VU: number; __ITER: number };

export const vu = {
  get idInInstance(): number {
    return g.__VU;
  },
  get idInTest(): number {
    return idInTest(g.__VU, runtime().segment);
  },
  get iterationInInstance(): number {
    return g.__ITER;
  },
};

export default { vu };

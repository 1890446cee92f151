import exec from 'k6/execution';

/**
 * A display name for findGame within the protocol's 3-20 letters, digits and underscores, unique in the
 * whole test: exec.vu.idInTest is unique across the generators of a split run (__VU is not,
 * each generator counts its VUs from 1).
 */
export function playerName(): string {
  return `k6_${exec.vu.idInTest}_${__ITER}`.slice(0, 20);
}

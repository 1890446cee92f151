/** A display name for findGame within SPEC's 3-20 letters, digits and underscores. */
export function playerName(): string {
  return `k6_${__VU}_${__ITER}`.slice(0, 20);
}

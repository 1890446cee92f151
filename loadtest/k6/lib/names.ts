/** A display name for findGame within the 3-20 letters, digits and underscores of a username. */
export function playerName(): string {
  return `k6_${__VU}_${__ITER}`.slice(0, 20);
}

export { EMPTY_POOL, POOL_WINDOW, fits, poolLogic, poolStep, ratingWindow } from './pool';
export type { PoolActor, PoolCommand, PoolEmitted, PoolState, QueuedPlayer, Seat } from './pool';

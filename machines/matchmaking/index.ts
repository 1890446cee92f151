export { matchmakingMachine } from './matchmakingMachine';
export type {
  MatchmakingContext,
  MatchmakingEmitted,
  MatchmakingEvent,
  MatchmakingInput,
  QueuedPlayer,
} from './matchmakingMachine';

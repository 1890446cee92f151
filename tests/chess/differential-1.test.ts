import { describeRandomGames } from './differential-helper';

// Games 1-1,000 of the 2,000 random games, chess.js through its public API (the other half runs
// beside it: differential-2.test.ts).
describeRandomGames([1, 2, 3, 4]);

import { describeRandomGames } from './differential-helper';

// Games 1,001-2,000 of the 2,000 random games, chess.js through its public API (the other half
// runs beside it: differential-1.test.ts).
describeRandomGames([5, 6, 7, 8]);

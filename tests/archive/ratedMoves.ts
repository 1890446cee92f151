/** Move lists long enough for a rated game (at least ten plies, docs/ratings.md), for the tests that play or store one. */

/** Ten plies of an ordinary opening (1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Nc3 Nf6 5. d3 d6): the fewest a rated game has. */
export const TEN_PLIES = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'f8c5', 'b1c3', 'g8f6', 'd2d3', 'd7d6'];
export const TEN_PLIES_PGN = '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Nc3 Nf6 5. d3 d6';

/** Légal's mate in 13 plies: white mates with 7. Nd5#. */
export const LEGALS_MATE = ['e2e4', 'e7e5', 'g1f3', 'd7d6', 'f1c4', 'c8g4', 'b1c3', 'g7g6', 'f3e5', 'g4d1', 'c4f7', 'e8e7', 'c3d5'];

/**
 * Why the game core refuses a command. The client shows "Invalid move: {reason}" for a
 * refused move (docs/protocol.md), so the texts are short sentences.
 */
export const REJECTION = {
  notAPlayer: 'Not a player in this game',
  notYourTurn: 'Not your turn',
  illegalMove: 'Illegal move',
  /** Any command for a game that is over. */
  gameOver: 'Game is over',
  drawTooEarly: 'A draw can be offered once both sides have moved',
  drawAlreadyOffered: 'Your draw offer is still pending',
  drawTooOften: 'You can offer a draw again after 20 plies',
  noDrawOffer: 'There is no draw offer to answer',
  takebacksOff: 'Takebacks are off in this game',
  takebackTooEarly: 'A takeback can be proposed once both sides have moved',
  takebackAlreadyProposed: 'Your takeback proposal is still pending',
  takebackTooOften: 'You can propose a takeback again after the next move',
  noTakebackOffer: 'There is no takeback proposal to answer',
  giveTimeAgainstAi: 'Time cannot be given in a game against the AI',
  giveTimeUntimed: 'Time can only be given in a game with a clock',
  giveTimeTooOften: 'You can give time again in a second',
} as const;

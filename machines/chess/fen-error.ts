/** Thrown for a FEN that cannot describe a legal chess position; the message says what is wrong. */
export class FenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FenError';
  }
}

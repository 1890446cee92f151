/** An ASCII string's bytes (one per character): the literal parts of the frames read and written by hand. */
export const asciiBytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

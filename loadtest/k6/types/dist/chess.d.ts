// Declarations for the k6 bundle of the chess core (loadtest/k6/dist/chess.js, built by
// `npm run build:k6` from machines/chess/index.ts, which copies this file next to the bundle).
// `#chess-core` is mapped to machines/chess/index.ts in ../../tsconfig.json.
export * from '#chess-core';

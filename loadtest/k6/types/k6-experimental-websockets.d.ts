// k6 has its WebSocket API as k6/experimental/websockets from v0.40.0 (still there, deprecated,
// in v2.2.0) and as k6/websockets from v1.6.0 only; @types/k6 declares just the latter. They are
// the same API.
declare module 'k6/experimental/websockets' {
  export * from 'k6/websockets';
}

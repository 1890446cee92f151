export * from './glicko2';

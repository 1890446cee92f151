/** How many watch a live game, on the whole site (`spectators`); nothing until the server has said. */
export function SpectatorCount({ count }: { count: number | null }) {
  if (count === null) return null;
  return (
    <p className="spectator-count" data-testid="spectator-count">
      {count === 1 ? '1 spectator' : `${count} spectators`}
    </p>
  );
}

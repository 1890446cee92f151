/**
 * A player's name as the site shows it. A guest chooses any name (another account's username
 * too), so a guest's name is always shown marked: only a signed-in account's name stands alone.
 */
export const GUEST_MARK = '(guest)';

export function shownPlayerName(name: string, guest: boolean): string {
  return guest ? `${name} ${GUEST_MARK}` : name;
}

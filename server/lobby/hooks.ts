/**
 * The lobby's custom games (lichess's "hooks"): a player posts one (time control, rated or casual,
 * colour) and it is listed live, on every node, to every socket that watches the lobby (the whole
 * list once, then what changes: one reading and one frame for all the news of a turn), until
 * someone joins it (both go to the game), its creator cancels it, starts another game, or has not
 * been seen on the site for LOBBY_RULES.hookUnseenMs. One hook per player: a new one replaces it.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { CustomGame, ErrorCode, Hook, ServerMessage } from '../../machines/protocol/messages';
import { lobbyChange, lobbyOrder } from '../../machines/lobby/listing';
import { isNoChange } from '../../machines/protocol/listChange';
import { LOBBY_RULES, REFUSAL_TEXT, createRefusal, creatorColor, joinRefusal, supersededHooks, unseen, type Refusal } from '../../machines/lobby/rules';
import type { Hub, PlayerSession, WS } from '../realtime/hub';
import { LobbyPart } from './part';
import { orphans } from './records';
import { creatorOf, playerOf, seatOf, type LobbyDeps } from './players';
import { playingName } from '../round/playingName';
import { newGameId } from '../game/games';

export const HOOK_TEXT = {
  unavailable: 'That game is no longer in the lobby.',
  inGame: 'You are playing a game already.',
  full: 'The lobby is full. Please try again in a moment.',
  notStarted: 'The game could not be started.',
} as const;

export const REFUSAL_CODE: Record<Refusal, ErrorCode> = {
  own: 'hook_unavailable',
  rated_needs_account: 'rated_needs_account',
  not_for_you: 'challenge_unavailable',
  not_open: 'challenge_unavailable',
};

export class LobbyHooks extends LobbyPart {
  /** players who watch the lobby from a socket here, which holds its list as last shown; by id, the socket */
  private readonly watchers = new Map<string, WS>();
  /** players who asked to watch the lobby and wait for its whole list (at the next reading); by id, the socket that asked */
  private readonly newcomers = new Map<string, WS>();
  /** the list as last read, in the lobby's order: what the watchers hold */
  private shown: Hook[] = [];
  private listing: Promise<void> | null = null;
  /** news came (or a newcomer) since the reading under way began */
  private due = false;
  /** each player's request under way here (post, cancel, join), which their next one waits for; by id */

  constructor(deps: LobbyDeps, log: Logger) {
    super(deps, log, 'The lobby cannot be reached right now. Please try again in a moment.');
    this.store.onNews((news) => {
      if (news.k === 'hooks') this.listChanged();
    });
  }

  watch(s: PlayerSession): void {
    this.watchers.delete(s.id);
    if (!s.ws) return;
    this.newcomers.set(s.id, s.ws);
    this.listChanged();
  }

  unwatch(s: PlayerSession): void {
    this.watchers.delete(s.id);
    this.newcomers.delete(s.id);
  }

  /** Posts the player's game, replacing theirs (after the player's requests under way here). */
  post(s: PlayerSession, options: CustomGame, name?: string | null): Promise<void> {
    return this.inOrder(s, () => this.postNow(s, options, name));
  }

  cancel(s: PlayerSession): Promise<void> {
    return this.inOrder(s, () => this.cancelNow(s));
  }

  join(s: PlayerSession, hookId: string, name?: string | null): Promise<void> {
    return this.inOrder(s, () => this.joinNow(s, hookId, name));
  }

  private async postNow(s: PlayerSession, options: CustomGame, name?: string | null): Promise<void> {
    if (await this.heldStill(s)) return this.refuse(s, 'active_game', HOOK_TEXT.inGame);
    const refused = createRefusal(options, playerOf(s));
    if (refused) return this.refuse(s, REFUSAL_CODE[refused], REFUSAL_TEXT[refused]);
    try {
      await this.removeOf(s.id);
      if ((await this.store.hooks.all()).length >= LOBBY_RULES.maxHooks) return this.refuse(s, 'unavailable', HOOK_TEXT.full);
      await this.rate(s, options.timeControl);
      const hook: Hook = { id: 'hook_' + randomBytes(6).toString('base64url'), by: creatorOf(s, name), ...options, createdAt: this.now() };
      // seen first: a node that reads the hook finds where its creator is
      await this.store.hooks.seen([hook.id], { at: this.now(), node: this.node });
      await this.store.hooks.put(hook);
      this.log.info({ playerId: s.id, hookId: hook.id }, 'hook posted');
    } catch (err) {
      this.failed(s, err as Error, 'hook not posted');
    } finally {
      // the player's previous hook went, whatever became of the new one
      this.store.announce({ k: 'hooks' });
    }
  }

  private async cancelNow(s: PlayerSession): Promise<void> {
    try {
      if (await this.removeOf(s.id)) this.store.announce({ k: 'hooks' });
    } catch (err) {
      this.failed(s, err as Error, 'hook not cancelled');
    }
  }

  private async joinNow(s: PlayerSession, hookId: string, name?: string | null): Promise<void> {
    if (await this.heldStill(s)) return this.refuse(s, 'active_game', HOOK_TEXT.inGame);
    if (this.refusedHere(s)) return;
    try {
      const seen = (await this.store.hooks.lastSeen()).get(hookId);
      const hook = await this.store.hooks.get(hookId);
      if (!hook || !seen) return this.refuse(s, 'hook_unavailable', HOOK_TEXT.unavailable);
      const refused = joinRefusal(hook, playerOf(s));
      if (refused) return this.refuse(s, REFUSAL_CODE[refused], REFUSAL_TEXT[refused]);
      // of two players joining at once, one takes it
      if (!(await this.store.hooks.take(hookId))) return this.refuse(s, 'hook_unavailable', HOOK_TEXT.unavailable);
      await this.removeOf(s.id);
      this.store.announce({ k: 'hooks' });
      s.name = playingName(s, name);
      await this.rate(s, hook.timeControl);
      const creatorPlays = creatorColor(hook.color, this.random());
      const joinerColor = creatorPlays === 'white' ? 'black' : 'white';
      if (!this.start(s, seatOf(hook.by, seen.node), joinerColor, hook.timeControl, !hook.rated, newGameId())) {
        this.refuse(s, 'game_start_failed', HOOK_TEXT.notStarted);
        return;
      }
      this.log.info({ hookId, creator: hook.by.id, joiner: s.id }, 'hook joined');
    } catch (err) {
      this.failed(s, err as Error, 'hook not joined');
    }
  }

  /**
   * Every second or so: hooks whose creator has a socket here are seen; hooks whose creator plays
   * a game (here) or has not been seen for a while leave the lobby, as do those a newer one of
   * the same player replaces (supersededHooks).
   */
  async sweep(): Promise<void> {
    const now = this.now();
    const hooks = await this.store.hooks.all();
    const here = hooks.filter((h) => this.hub.session(h.by.id)?.ws);
    const busy = here.filter((h) => this.heldBy(this.hub.session(h.by.id)!));
    await this.store.hooks.seen(here.filter((h) => !busy.includes(h)).map((h) => h.id), { at: now, node: this.node });
    const seen = await this.store.hooks.lastSeen();
    await this.store.hooks.forgetSeen(orphans(seen, hooks, now, LOBBY_RULES.hookUnseenMs));
    const superseded = supersededHooks(hooks);
    const gone = hooks.filter((h) => busy.includes(h) || superseded.includes(h) || unseen(seen.get(h.id)?.at ?? h.createdAt, now, LOBBY_RULES.hookUnseenMs));
    let removed = 0;
    for (const h of gone) if (await this.store.hooks.take(h.id)) removed++;
    if (removed > 0) this.store.announce({ k: 'hooks' });
  }

  /** Takes the player's hooks off the lobby; whether there were any. */
  private async removeOf(playerId: string): Promise<boolean> {
    const mine = (await this.store.hooks.all()).filter((h) => h.by.id === playerId);
    for (const h of mine) await this.store.hooks.take(h.id);
    return mine.length > 0;
  }

  /** The list may have changed, or a newcomer waits for it: one reading for all the news of this turn, one reading at a time. */
  private listChanged(): void {
    this.due = true;
    this.listing ??= this.relist();
  }

  private async relist(): Promise<void> {
    while (this.due) {
      // the rest of this turn's news joins the reading: the other messages of the sockets read in
      // this turn (the server drains the microtasks after each), several nodes' announcements
      await endOfTurn();
      this.due = false;
      await this.showList();
    }
    this.listing = null;
  }

  /**
   * One reading of the list: the watchers get what changed since the last, the newcomers the whole
   * list; each message encoded once for all. A failed reading changes nothing (newcomers are told
   * and wait for the next one).
   */
  private async showList(): Promise<void> {
    let hooks: Hook[];
    try {
      hooks = lobbyOrder(await this.store.hooks.all());
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'lobby not listed');
      for (const { s } of this.socketsOf(this.newcomers)) this.failed(s, err as Error, 'lobby not listed');
      return;
    }
    const change = lobbyChange(this.shown, hooks);
    this.shown = hooks;
    const waiting = new Map(this.newcomers);
    this.newcomers.clear();
    if (!isNoChange(change)) this.sendAll(this.watchers, { type: 'lobbyHooksChanged', ...change });
    for (const { s, ws } of this.sendAll(waiting, { type: 'lobbyHooks', hooks })) this.watchers.set(s.id, ws);
  }

  /**
   * `msg` to each socket of `sockets` still open here (the others are forgotten); those it reached.
   * One whose socket dropped it (too far behind) waits for the whole list at the next reading.
   */
  private sendAll(sockets: Map<string, WS>, msg: ServerMessage): { s: PlayerSession; ws: WS }[] {
    const text = JSON.stringify(msg);
    const reached: { s: PlayerSession; ws: WS }[] = [];
    for (const to of this.socketsOf(sockets)) {
      if (this.hub.sendWs(to.ws, text)) reached.push(to);
      else this.resync(to.s.id, to.ws);
    }
    return reached;
  }

  private resync(id: string, ws: WS): void {
    this.watchers.delete(id);
    this.newcomers.set(id, ws);
    this.log.info({ playerId: id }, 'lobby frame dropped by a socket too far behind; whole list at the next reading');
  }

  /**
   * The players of `sockets` whose socket that asked is still theirs here; the others leave
   * `sockets` (a player back on a new socket has not asked there, and holds no list).
   */
  private socketsOf(sockets: Map<string, WS>): { s: PlayerSession; ws: WS }[] {
    const out: { s: PlayerSession; ws: WS }[] = [];
    for (const [id, ws] of sockets) {
      const s = this.hub.session(id);
      if (s?.ws === ws) out.push({ s, ws });
      else sockets.delete(id);
    }
    return out;
  }
}

/** Resolves once this turn of the event loop is over: after every socket it reads, and the microtasks each leaves. */
function endOfTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Challenges: a player creates one (time control, colour, rated or casual), to anyone with its
 * link or to a signed-in player by username; whoever it is for may accept (both go to the game)
 * or decline; its creator may cancel it. It expires once its creator has not been seen on the
 * site for LOBBY_RULES.challengeUnseenMs (lichess's real-time rule), and an ended one is kept
 * LOBBY_RULES.challengeKeptMs so its link tells what became of it. The records live in the
 * lobby's store (Redis with several nodes, so any node can answer one; a file of the data
 * directory on one node), and every change reaches its creator, the player challenged and the
 * sockets that opened it, on whichever node they are.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Challenge, CustomGame, DeclineReason } from '../../machines/protocol/messages';
import { LOBBY_RULES, REFUSAL_TEXT, answerRefusal, challengePlan, createRefusal, creatorColor, ended, forgotten, isFor, openBy, sameName, unseen } from '../../machines/lobby/rules';
import type { Hub, PlayerSession } from '../realtime/hub';
import { LobbyPart } from '../lobby/part';
import { orphans, type Seen } from '../lobby/records';
import { creatorOf, playerOf, seatOf, type LobbyDeps } from '../lobby/players';
import { playingName } from '../round/playingName';
import { REFUSAL_CODE } from '../lobby/hooks';
import { newGameId } from '../game/games';
import type { AccountsModule } from '../wiring';

/** The account that holds a username (the accounts module's lookup). */
export type AccountLookup = NonNullable<AccountsModule['accountByUsername']>;

export const CHALLENGE_TEXT = {
  unavailable: 'That challenge cannot be found. It may have expired.',
  inGame: 'You are playing a game already.',
  limit: `You have ${LOBBY_RULES.maxOpenChallenges} open challenges. Cancel one, or wait for an answer, before you make another.`,
  byUsernameNeedsAccount: 'Sign in to challenge a player by username.',
  notYourself: 'You cannot challenge yourself.',
  nobodyCalled: (username: string) => `No player is called ${username}.`,
  accountsUnreachable: 'Player accounts cannot be reached right now, so the challenge was not sent. Please try again in a moment.',
  notYours: 'Only its creator can cancel a challenge.',
  notStarted: 'The game could not be started: your opponent is busy or gone.',
  /** the challenges' store failed (Redis away; on one node, their file not written): nothing changed */
  unreachable: 'Challenges cannot be reached right now. Please try again in a moment.',
} as const;

type Ending = 'declined' | 'canceled' | 'expired';

export class Challenges extends LobbyPart {
  /** the challenges each socket here opened (watchChallenge), by challenge id */
  private readonly watchers = new Map<string, Set<string>>();
  /** the players here told of each open challenge to them (a player signed in later is told at the next sweep) */
  private readonly told = new Map<string, Set<string>>();

  /** `accountNamed`: who holds the username a challenge names (the accounts module's, embedded or hosted); absent (no accounts), the name is not checked */
  constructor(
    deps: LobbyDeps,
    log: Logger,
    private readonly accountNamed?: AccountLookup,
  ) {
    super(deps, log, CHALLENGE_TEXT.unreachable);
    this.store.onNews((news) => {
      if (news.k === 'challenge') this.tell(news.c);
    });
  }

  /** Makes a challenge (after the player's requests under way here, as every answer and cancel). */
  create(s: PlayerSession, options: CustomGame, to: string | undefined, name?: string | null): Promise<void> {
    return this.inOrder(s, () => this.createNow(s, options, to, name));
  }

  accept(s: PlayerSession, id: string, name?: string | null): Promise<void> {
    return this.inOrder(s, () => this.acceptNow(s, id, name));
  }

  decline(s: PlayerSession, id: string, reason: DeclineReason = 'generic'): Promise<void> {
    return this.inOrder(s, () => this.declineNow(s, id, reason));
  }

  cancel(s: PlayerSession, id: string): Promise<void> {
    return this.inOrder(s, () => this.cancelNow(s, id));
  }

  private async createNow(s: PlayerSession, options: CustomGame, to: string | undefined, name?: string | null): Promise<void> {
    const player = playerOf(s);
    const refused = createRefusal(options, player);
    if (refused) return this.refuse(s, REFUSAL_CODE[refused], REFUSAL_TEXT[refused]);
    if (to !== undefined && !player.signedIn) return this.refuse(s, 'not_signed_in', CHALLENGE_TEXT.byUsernameNeedsAccount);
    if (to !== undefined && player.username !== undefined && sameName(to, player.username)) return this.refuse(s, 'invalid_options', CHALLENGE_TEXT.notYourself);
    const addressee = to === undefined ? undefined : await this.addressee(s, to);
    if (addressee === null) return;
    try {
      const plan = challengePlan(openBy(await this.store.challenges.all(), s.id), addressee);
      if (plan.refused) return this.refuse(s, 'challenge_limit', CHALLENGE_TEXT.limit);
      for (const c of plan.replace) await this.end(c.id, 'canceled');
      await this.rate(s, options.timeControl);
      const c: Challenge = {
        id: randomBytes(6).toString('base64url'),
        by: creatorOf(s, name),
        ...(addressee !== undefined ? { to: addressee } : {}),
        ...options,
        status: 'created',
        createdAt: this.now(),
      };
      // seen first: a node that reads the challenge finds where its creator is
      await this.store.challenges.seen([c.id], { at: this.now(), node: this.node });
      await this.store.challenges.put(c);
      this.log.info({ playerId: s.id, challengeId: c.id, to: addressee }, 'challenge created');
      this.store.announce({ k: 'challenge', c });
    } catch (err) {
      this.failed(s, err as Error, 'challenge not created');
    }
  }

  /**
   * The username a challenge is to, as its account spells it (`to` itself where there are no
   * accounts to look it up in); null, the player told why, when no account holds it (`sameName`)
   * or the accounts do not answer: a challenge to nobody would wait until it expired.
   */
  private async addressee(s: PlayerSession, to: string): Promise<string | null> {
    if (!this.accountNamed) return to;
    try {
      const account = await this.accountNamed(to);
      if (account && sameName(account.username, to)) return account.username;
      this.refuse(s, 'invalid_options', CHALLENGE_TEXT.nobodyCalled(to));
    } catch (err) {
      this.log.warn({ err: (err as Error).message, playerId: s.id }, 'challenged username not looked up');
      this.refuse(s, 'unavailable', CHALLENGE_TEXT.accountsUnreachable);
    }
    return null;
  }

  async watch(s: PlayerSession, id: string): Promise<void> {
    try {
      const c = await this.store.challenges.get(id);
      if (!c) return this.refuse(s, 'challenge_unavailable', CHALLENGE_TEXT.unavailable);
      let set = this.watchers.get(id);
      if (!set) this.watchers.set(id, (set = new Set()));
      set.add(s.id);
      this.hub.sendTo(s, { type: 'challenge', challenge: c });
    } catch (err) {
      this.failed(s, err as Error, 'challenge not read');
    }
  }

  private async acceptNow(s: PlayerSession, id: string, name?: string | null): Promise<void> {
    if (await this.heldStill(s)) return this.refuse(s, 'active_game', CHALLENGE_TEXT.inGame);
    if (this.refusedHere(s)) return;
    try {
      const c = await this.answerable(s, id, true);
      if (!c) return;
      const seen = (await this.store.challenges.lastSeen()).get(id);
      // of two answers at once, one takes it
      const taken = await this.store.challenges.take(id);
      if (!taken || taken.status !== 'created' || !seen) {
        if (taken) await this.store.challenges.put(taken);
        return this.refuse(s, 'challenge_unavailable', REFUSAL_TEXT.not_open);
      }
      s.name = playingName(s, name);
      await this.rate(s, c.timeControl);
      // The acceptance, with its game's id, is kept before the game starts: a store that fails
      // here has started nothing, so the player is told the truth; a game that then cannot start
      // leaves the challenge open again.
      const gameId = newGameId();
      const accepted = ended(taken, 'accepted', this.now(), { gameId });
      if (!(await this.keptAccepted(s, accepted, taken, seen))) return;
      const creatorPlays = creatorColor(c.color, this.random());
      if (!this.start(s, seatOf(c.by, seen.node), creatorPlays === 'white' ? 'black' : 'white', c.timeControl, !c.rated, gameId)) {
        // still open: the creator may be back, or someone else may accept
        await this.reopen(taken, seen);
        return this.refuse(s, 'game_start_failed', CHALLENGE_TEXT.notStarted);
      }
      this.log.info({ challengeId: id, creator: c.by.id, accepter: s.id, gameId }, 'challenge accepted');
      this.store.announce({ k: 'challenge', c: accepted });
    } catch (err) {
      this.failed(s, err as Error, 'challenge not accepted');
    }
  }

  /**
   * Keeps a challenge's acceptance; false, the accepter told why, when the store failed: the
   * challenge is then put back open, as far as the store lets it (it was taken to be accepted).
   */
  private async keptAccepted(s: PlayerSession, accepted: Challenge, taken: Challenge, seen: Seen): Promise<boolean> {
    try {
      await this.store.challenges.put(accepted);
      return true;
    } catch (err) {
      // reopened before the accepter hears of it, so trying again finds it open
      await this.reopen(taken, seen).catch((again: Error) => this.log.warn({ err: again.message, challengeId: taken.id }, 'challenge not reopened after its acceptance failed'));
      this.failed(s, err as Error, 'challenge not accepted');
      return false;
    }
  }

  /** An open challenge taken to be answered goes back as it was, its creator seen where they were. */
  private async reopen(taken: Challenge, seen: Seen): Promise<void> {
    await this.store.challenges.put(taken);
    await this.store.challenges.seen([taken.id], seen);
  }

  private async declineNow(s: PlayerSession, id: string, reason: DeclineReason): Promise<void> {
    try {
      if (await this.answerable(s, id, false)) await this.end(id, 'declined', reason);
    } catch (err) {
      this.failed(s, err as Error, 'challenge not declined');
    }
  }

  private async cancelNow(s: PlayerSession, id: string): Promise<void> {
    try {
      const c = await this.store.challenges.get(id);
      if (!c) return this.refuse(s, 'challenge_unavailable', CHALLENGE_TEXT.unavailable);
      if (c.by.id !== s.id) return this.refuse(s, 'challenge_unavailable', CHALLENGE_TEXT.notYours);
      if (c.status !== 'created' || !(await this.end(id, 'canceled'))) this.refuse(s, 'challenge_unavailable', REFUSAL_TEXT.not_open);
    } catch (err) {
      this.failed(s, err as Error, 'challenge not cancelled');
    }
  }

  /**
   * Every second or so: open challenges whose creator has a socket here are seen; those whose
   * creator has not been seen for challengeUnseenMs expire; ended ones kept long enough go.
   */
  async sweep(): Promise<void> {
    const now = this.now();
    const all = await this.store.challenges.all();
    const open = all.filter((c) => c.status === 'created');
    await this.store.challenges.seen(open.filter((c) => this.hub.session(c.by.id)?.ws).map((c) => c.id), { at: now, node: this.node });
    const seen = await this.store.challenges.lastSeen();
    await this.store.challenges.forgetSeen(orphans(seen, all, now, LOBBY_RULES.challengeUnseenMs));
    for (const c of open) if (unseen(seen.get(c.id)?.at ?? c.createdAt, now, LOBBY_RULES.challengeUnseenMs)) await this.end(c.id, 'expired');
    for (const c of all) if (forgotten(c, now)) await this.store.challenges.take(c.id);
    for (const id of this.watchers.keys()) if (!all.some((c) => c.id === id)) this.watchers.delete(id);
    this.tellLate(open.filter((c) => c.to !== undefined));
  }

  /** Players challenged by username who signed in here since the challenge was made are told now. */
  private tellLate(toSomeone: Challenge[]): void {
    for (const id of this.told.keys()) if (!toSomeone.some((c) => c.id === id)) this.told.delete(id);
    for (const c of toSomeone) {
      const told = this.told.get(c.id) ?? new Set<string>();
      this.told.set(c.id, told);
      for (const s of this.challenged(c)) {
        if (told.has(s.id)) continue;
        told.add(s.id);
        this.hub.sendTo(s, { type: 'challenge', challenge: c });
      }
    }
  }

  /** The signed-in players with a socket here whom the challenge names. */
  private challenged(c: Challenge): PlayerSession[] {
    if (c.to === undefined) return [];
    return [...this.hub.players.values()].filter((s) => s.ws && s.username && isFor(c, playerOf(s)));
  }

  /** The challenge if `s` may answer it; otherwise they are told why and it is null. */
  private async answerable(s: PlayerSession, id: string, accepting: boolean): Promise<Challenge | null> {
    const c = await this.store.challenges.get(id);
    if (!c) {
      this.refuse(s, 'challenge_unavailable', CHALLENGE_TEXT.unavailable);
      return null;
    }
    const refused = answerRefusal(c, playerOf(s), accepting);
    if (refused) {
      this.refuse(s, REFUSAL_CODE[refused], REFUSAL_TEXT[refused]);
      return null;
    }
    return c;
  }

  /** Ends an open challenge (whoever takes it first); false when it was not open any more. */
  private async end(id: string, status: Ending, declineReason?: DeclineReason): Promise<boolean> {
    const taken = await this.store.challenges.take(id);
    if (!taken) return false;
    if (taken.status !== 'created') {
      await this.store.challenges.put(taken);
      return false;
    }
    const c = ended(taken, status, this.now(), declineReason ? { declineReason } : {});
    await this.store.challenges.put(c);
    this.log.info({ challengeId: id, status }, 'challenge ended');
    this.store.announce({ k: 'challenge', c });
    return true;
  }

  /** A challenge changed: its creator, the player challenged and the sockets that opened it, here, are told. */
  private tell(c: Challenge): void {
    const ids = new Set(this.watchers.get(c.id));
    ids.add(c.by.id);
    for (const s of this.challenged(c)) {
      ids.add(s.id);
      if (c.status === 'created') this.told.set(c.id, (this.told.get(c.id) ?? new Set()).add(s.id));
    }
    const text = JSON.stringify({ type: 'challenge', challenge: c });
    for (const id of ids) {
      const s = this.hub.session(id);
      if (s?.ws) this.hub.sendWs(s.ws, text);
    }
  }


}

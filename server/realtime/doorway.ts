/**
 * The socket's way in: the per-address and server-wide admission (answered with a status before
 * any other work), then the guest identity the client proves, and the socket's data.
 */
import type { HttpRequest, HttpResponse, us_socket_context_t } from 'uWebSockets.js';
import type { ServerMetrics } from '../http/metrics';
import { TrustedProxies, clientAddress } from '../http/clientAddress';
import { Admission, addressKey, type AdmissionRefusal } from './admission';
import type { AdmissionLimits } from '../config/server';
import type { SocketData } from './hub';
import { guestProtocol } from '../../machines/protocol/guestClaim';
import { guestClaim, type GuestIdentity } from './identity';
import { LagPings } from './lagPings';
import { newRateState } from './rateLimit';
import type { RefusalLog } from './refusalLog';

export class Doorway {
  private nextConnId = 1;
  private readonly admission: Admission;
  private readonly proxies: TrustedProxies;

  constructor(
    limits: AdmissionLimits,
    /** reverse proxies whose X-Forwarded-For names the client (TRUST_PROXY) */
    trustProxy: readonly string[],
    private readonly identity: GuestIdentity,
    private readonly metrics: ServerMetrics,
    private readonly refusals: RefusalLog,
    /** several nodes: a socket's messages wait until the site knows of it */
    private readonly heldAtFirst: boolean,
  ) {
    this.admission = new Admission(limits);
    this.proxies = new TrustedProxies(trustProxy);
  }

  upgrade(res: HttpResponse, req: HttpRequest, ctx: us_socket_context_t): void {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    const address = addressKey(clientAddress(peer, req.getHeader('x-forwarded-for') || undefined, this.proxies));
    const refusal = this.admission.admit(address, performance.now());
    if (refusal) {
      // answered at once with a status (429, or 503 when the server is full), before any other
      // work (the guest secret's HMAC included)
      this.refuse(res, address, refusal);
      return;
    }
    const claim = guestClaim(req);
    if (claim) this.metrics.guestClaims.inc({ form: claim.form });
    let playerId: string;
    let resumed = false;
    let identityRejected = false;
    if (claim && this.identity.verify(claim.playerId, claim.secret)) {
      playerId = claim.playerId;
      resumed = true;
    } else {
      if (claim) identityRejected = true;
      playerId = this.identity.newGuestId();
    }
    const data: SocketData = {
      connId: this.nextConnId++,
      playerId,
      address,
      resumed,
      identityRejected,
      rate: newRateState(performance.now()),
      closing: false,
      replaced: false,
      // present from the start, so every socket's data object keeps one shape (hot paths stay monomorphic)
      lagMs: undefined,
      lastPingAt: LagPings.NEVER,
      pingsInFlight: [],
      identifiedWith: null,
      endsSent: null,
      identifying: false,
      session: null,
      held: this.heldAtFirst ? [] : null,
      siteOrder: undefined,
      replacedWhileLocating: null,
    };
    // Always within this handler: uWS (v20.30) can close a socket upgraded later, from a cork
    // of its own (the upgraded socket kept the address of the HTTP one, and cork() read HTTP
    // state there). Several nodes: what the site says of the socket comes after it opened.
    // a browser that offered its identity as the subprotocol fails the socket unless the answer
    // names that protocol, whether or not the identity was taken
    const protocol = claim?.form === 'protocol' ? guestProtocol(claim) : req.getHeader('sec-websocket-protocol');
    res.upgrade(data, req.getHeader('sec-websocket-key'), protocol, req.getHeader('sec-websocket-extensions'), ctx);
  }

  /** A connection refused (at the upgrade, or by the site once open): counted and logged. */
  countRefused(address: string, refusal: AdmissionRefusal): void {
    this.metrics.connectionsRefused.inc({ reason: refusal.reason });
    this.refusals.note('connection', address, refusal.reason);
  }

  /** The socket from `address` closed: its place is free. */
  release(address: string): void {
    this.admission.release(address);
  }

  sweep(now: number): void {
    this.admission.sweep(now);
  }

  private refuse(res: HttpResponse, address: string, refusal: AdmissionRefusal): void {
    this.countRefused(address, refusal);
    res.cork(() => {
      res
        .writeStatus(refusal.status)
        .writeHeader('Retry-After', String(refusal.retryAfterSeconds))
        .writeHeader('Content-Type', 'text/plain; charset=utf-8')
        .writeHeader('Connection', 'close')
        .end(refusal.message, true);
    });
  }
}

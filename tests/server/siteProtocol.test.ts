/**
 * The site protocol is one number for the shapes a site's nodes exchange (the messages between
 * nodes, the lobby's records in Redis, the client commands they forward): changing any of them
 * without raising SITE_PROTOCOL would let a node of the new release join nodes of the old one.
 */
import { describe, expect, it } from 'vitest';
import { SITE_PROTOCOL, siteProtocolFingerprint } from '../../server/cluster/siteProtocol';

/** The fingerprint each protocol number stands for; a new number gets its line when the shapes change. */
const PINNED: Record<number, string> = {
  1: '5e7d8e5eab9c07b5',
  2: '4c96dde1d9bc8a5f',
  3: '3524d9876dbbe0af',
};

describe('the site protocol', () => {
  it('changes with what the nodes exchange: a changed shape must come with a new SITE_PROTOCOL', () => {
    expect(siteProtocolFingerprint(), `the shapes nodes exchange changed: raise SITE_PROTOCOL and pin the new fingerprint under it`).toBe(PINNED[SITE_PROTOCOL]);
  });
});

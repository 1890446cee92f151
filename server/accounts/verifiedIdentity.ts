/** Who a valid access token says its bearer is: the account id, with the e-mail and username it carries. */
export interface VerifiedIdentity {
  sub: string;
  email?: string;
  username?: string;
}

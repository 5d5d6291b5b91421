// The one shape every SASL mechanism takes (PLAIN, SCRAM, OAUTHBEARER, AWS MSK IAM, or an app's
// own): a name for SaslHandshake, then a conversation of bytes in and out through
// SaslAuthenticate, and an optional hook on the session lifetime the broker grants (KIP-368).
//
//   const mine: SaslMechanism = {
//     name: 'PLAIN',
//     async authenticate(send) { await send(new TextEncoder().encode('\0user\0password')); },
//   };
//   await connect({ host, port, sasl: mine });
//
// authenticate() runs once per authentication (and again for every re-authentication, on the
// same connection); it resolves when the conversation succeeded and throws when it did not.

/** Sends one message to the broker in a SaslAuthenticate request; resolves with the broker's answer. */
export type SaslSend = (message: Uint8Array) => Promise<Uint8Array>;

export interface SaslContext {
  /** The broker being authenticated to. */
  readonly host: string;
  readonly port: number;
  /** True for a KIP-368 re-authentication on a connection that is already authenticated. */
  readonly reauthentication: boolean;
}

export interface SaslMechanism {
  /** The name SaslHandshake carries (PLAIN, SCRAM-SHA-256, OAUTHBEARER, ...). */
  readonly name: string;
  /**
   * One conversation: call `send` for each message (it rejects with a SaslError when the broker
   * answers with an error); resolve when authenticated, throw (any Error) to fail. The thrown
   * message is shown after "SASL NAME: ", so it must not carry secrets.
   */
  authenticate(send: SaslSend, context: SaslContext): Promise<void>;
  /**
   * The broker granted a session of `sessionLifetimeMs` (KIP-368; 0 means no limit, and this is
   * not called): return how many ms from now to re-authenticate. Without this hook the
   * connection re-authenticates at a random 85-95% of the lifetime, as Kafka's Java client does.
   */
  reauthenticateAfterMs?(sessionLifetimeMs: number): number;
}

/** Kafka's Java client re-authenticates at 85% of the session lifetime plus up to 10% of jitter. */
export function defaultReauthenticateAfterMs(sessionLifetimeMs: number, random: () => number = Math.random): number {
  return Math.floor(sessionLifetimeMs * (0.85 + 0.1 * random()));
}

export function isSaslMechanism(value: unknown): value is SaslMechanism {
  return typeof value === 'object' && value !== null && typeof (value as SaslMechanism).name === 'string'
    && typeof (value as SaslMechanism).authenticate === 'function';
}

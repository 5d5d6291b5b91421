// The client side of SASL/SCRAM (RFC 5802, with SHA-256 and SHA-512 as RFC 7677 and Kafka's
// KIP-84 name them), over Web Crypto only, so it runs in Node, Deno, Bun and browsers alike.
// The connection sends the three messages through SaslAuthenticate; this file only builds and
// checks them:
//
//   const scram = new ScramClient('SCRAM-SHA-256', 'alice', 'pw');
//   const first = scram.clientFirst();                 // -> server
//   const final = await scram.clientFinal(serverFirst); // -> server
//   await scram.verifyServerFinal(serverFinal);         // throws unless the server knew the password
//
// Kafka applies no SASLprep to passwords (its ScramFormatter uses the UTF-8 bytes as given), so
// neither does this client; user names are escaped as RFC 5802 says (',' and '=').

export type ScramMechanism = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export const SCRAM_MECHANISMS: readonly ScramMechanism[] = ['SCRAM-SHA-256', 'SCRAM-SHA-512'];

const HASH: Record<ScramMechanism, { name: string; bits: number }> = {
  'SCRAM-SHA-256': { name: 'SHA-256', bits: 256 },
  'SCRAM-SHA-512': { name: 'SHA-512', bits: 512 },
};

/**
 * The most PBKDF2 iterations a server may ask for: four times Kafka's own maximum (16384), so a
 * hostile or broken server cannot make the client spin for minutes.
 */
export const MAX_SCRAM_ITERATIONS = 65536;
/** RFC 7677 asks for at least 4096 (Kafka's minimum too); fewer is refused. */
export const MIN_SCRAM_ITERATIONS = 4096;

/** A SCRAM exchange that went wrong: what the server sent did not follow RFC 5802, or proved nothing. */
export class ScramError extends Error {
  override readonly name = 'ScramError';
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** The GS2 header of a client that does not support channel binding and sends no authzid. */
const GS2_HEADER = 'n,,';

export class ScramClient {
  readonly mechanism: ScramMechanism;
  readonly #username: string;
  readonly #password: string;
  readonly #clientNonce: string;
  readonly #extensions: string;
  #clientFirstBare = '';
  #expectedServerSignature: Bytes | null = null;

  /**
   * `nonce` is for tests (RFC 7677's example); by default 24 random bytes in base64.
   * `extensions` follow the nonce in client-first (Kafka's delegation tokens: tokenauth=true).
   */
  constructor(mechanism: ScramMechanism, username: string, password: string, nonce?: string, extensions?: Readonly<Record<string, string>>) {
    if (!Object.hasOwn(HASH, mechanism)) throw new ScramError(`unknown SCRAM mechanism ${String(mechanism)} (${SCRAM_MECHANISMS.join(', ')})`);
    this.mechanism = mechanism;
    this.#username = username;
    this.#password = password;
    this.#clientNonce = nonce ?? base64(crypto.getRandomValues(new Uint8Array(24)));
    this.#extensions = Object.entries(extensions ?? {}).map(([k, v]) => {
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(k) || /[,=]/.test(v)) throw new ScramError(`bad SCRAM extension name or value for ${JSON.stringify(k)}`);
      return `,${k}=${v}`;
    }).join('');
  }

  /** client-first-message: "n,,n=USER,r=NONCE" (then any extensions). */
  clientFirst(): Uint8Array {
    this.#clientFirstBare = `n=${escapeName(this.#username)},r=${this.#clientNonce}${this.#extensions}`;
    return utf8.encode(GS2_HEADER + this.#clientFirstBare);
  }

  /** client-final-message for the server-first-message: channel binding, the nonce, the proof. */
  async clientFinal(serverFirstBytes: Uint8Array): Promise<Uint8Array> {
    if (this.#clientFirstBare === '') throw new ScramError('clientFinal() before clientFirst()');
    const serverFirst = text(serverFirstBytes, 'server-first-message');
    const attrs = parseAttributes(serverFirst, 'server-first-message');
    if (attrs.has('e')) throw new ScramError(`the server refused the first message: ${attrs.get('e')}`);
    if (attrs.has('m')) throw new ScramError(`the server asks for an extension this client lacks (m=)`);
    const nonce = required(attrs, 'r', 'server-first-message');
    const saltText = required(attrs, 's', 'server-first-message');
    const iterationsText = required(attrs, 'i', 'server-first-message');
    if (!nonce.startsWith(this.#clientNonce) || nonce.length === this.#clientNonce.length) {
      throw new ScramError(`the server's nonce does not extend the client's`);
    }
    if (!/^\d{1,9}$/.test(iterationsText)) throw new ScramError(`bad iteration count ${JSON.stringify(iterationsText)}`);
    const iterations = Number(iterationsText);
    if (iterations < MIN_SCRAM_ITERATIONS || iterations > MAX_SCRAM_ITERATIONS) {
      throw new ScramError(`iteration count ${iterations} outside ${MIN_SCRAM_ITERATIONS}-${MAX_SCRAM_ITERATIONS}`);
    }
    const salt = unbase64(saltText, 'salt');
    const hash = HASH[this.mechanism];
    const saltedPassword = await pbkdf2(hash, utf8.encode(this.#password), salt, iterations);
    const clientKey = await hmac(hash, saltedPassword, utf8.encode('Client Key'));
    const storedKey = new Uint8Array(await crypto.subtle.digest(hash.name, clientKey));
    const withoutProof = `c=${base64(utf8.encode(GS2_HEADER))},r=${nonce}`;
    const authMessage = utf8.encode(`${this.#clientFirstBare},${serverFirst},${withoutProof}`);
    const clientSignature = await hmac(hash, storedKey, authMessage);
    const proof = clientKey.map((b, i) => b ^ clientSignature[i]!);
    const serverKey = await hmac(hash, saltedPassword, utf8.encode('Server Key'));
    this.#expectedServerSignature = await hmac(hash, serverKey, authMessage);
    return utf8.encode(`${withoutProof},p=${base64(proof)}`);
  }

  /** Checks the server-final-message: "v=" with the server's signature, or "e=" with its error. */
  async verifyServerFinal(serverFinalBytes: Uint8Array): Promise<void> {
    const expected = this.#expectedServerSignature;
    if (expected === null) throw new ScramError('verifyServerFinal() before clientFinal()');
    const attrs = parseAttributes(text(serverFinalBytes, 'server-final-message'), 'server-final-message');
    if (attrs.has('e')) throw new ScramError(`the server refused the proof: ${attrs.get('e')}`);
    const signature = unbase64(required(attrs, 'v', 'server-final-message'), 'server signature');
    if (signature.length !== expected.length || signature.some((b, i) => b !== expected[i])) {
      throw new ScramError(`the server's signature is wrong (it does not know the password)`);
    }
  }
}

/** RFC 5802's saslname: '=' as "=3D" and ',' as "=2C". */
function escapeName(name: string): string {
  return name.replaceAll('=', '=3D').replaceAll(',', '=2C');
}

function text(bytes: Uint8Array, what: string): string {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    throw new ScramError(`the ${what} is not UTF-8`);
  }
}

/** "a=1,b=2" into a map; values may contain '=' (base64), attribute names are one letter. */
function parseAttributes(message: string, what: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const part of message.split(',')) {
    if (!/^[A-Za-z]=/.test(part)) throw new ScramError(`the ${what} has a malformed attribute ${JSON.stringify(part.slice(0, 40))}`);
    if (!attrs.has(part[0]!)) attrs.set(part[0]!, part.slice(2));
  }
  return attrs;
}

function required(attrs: Map<string, string>, name: string, what: string): string {
  const value = attrs.get(name);
  if (value === undefined || value === '') throw new ScramError(`the ${what} lacks its "${name}=" attribute`);
  return value;
}

/** Bytes Web Crypto accepts (not a view of a SharedArrayBuffer). */
type Bytes = Uint8Array<ArrayBuffer>;

async function pbkdf2(hash: { name: string; bits: number }, password: Bytes, salt: Bytes, iterations: number): Promise<Bytes> {
  const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: hash.name, salt, iterations }, key, hash.bits));
}

async function hmac(hash: { name: string }, keyBytes: Bytes, data: Bytes): Promise<Bytes> {
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: hash.name }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, data));
}

/** Standard base64 with padding (btoa exists in every runtime this package supports). */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function unbase64(value: string, what: string): Bytes {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw new ScramError(`the ${what} is not base64`);
  return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
}

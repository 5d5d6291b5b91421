// The server side of RFC 6455 WebSockets, as much as `kafka-wire bridge` needs: the opening
// handshake's accept key, a reader for the frames a client sends (masked, possibly fragmented,
// control frames between fragments) and the frames a server sends (unmasked). A message's size is
// checked at each frame header, before its payload is buffered, so a hostile page cannot make the
// bridge allocate more than the limit.
import { createHash } from 'node:crypto';

/** Frame opcodes (RFC 6455 section 5.2). */
export const Opcode = { CONTINUATION: 0, TEXT: 1, BINARY: 2, CLOSE: 8, PING: 9, PONG: 10 } as const;
export type MessageOpcode = 1 | 2 | 8 | 9 | 10;

/** Close codes the bridge sends (RFC 6455 section 7.4.1). */
export const CloseCode = {
  NORMAL: 1000, GOING_AWAY: 1001, PROTOCOL_ERROR: 1002, UNSUPPORTED_DATA: 1003,
  POLICY_VIOLATION: 1008, MESSAGE_TOO_BIG: 1009, INTERNAL_ERROR: 1011,
} as const;

/** A client broke the framing rules or a limit; `closeCode` is what to close the socket with. */
export class WebSocketError extends Error {
  override readonly name = 'WebSocketError';
  constructor(readonly closeCode: number, message: string, readonly offset: number) {
    super(`${message} (at byte ${offset} of the WebSocket stream)`);
  }
}

const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Sec-WebSocket-Accept for a client's Sec-WebSocket-Key. */
export function acceptKey(key: string): string {
  return createHash('sha1').update(key + ACCEPT_GUID).digest('base64');
}

/** Whether a Sec-WebSocket-Key is what RFC 6455 requires: 16 bytes in base64. */
export function isValidKey(key: string | undefined): key is string {
  return key !== undefined && /^[A-Za-z0-9+/]{22}==$/.test(key);
}

export interface WebSocketMessage { opcode: MessageOpcode; payload: Uint8Array }

/** Reads a client's frames into whole messages; errors are sticky, as the framing is lost. */
export class WebSocketFrameReader {
  readonly maxMessageSize: number;
  #pieces: Uint8Array[] = [];
  #buffered = 0;
  /** Stream offset of the first buffered byte. */
  #offset = 0;
  /** The data message being assembled from fragments, or null between messages. */
  #fragments: { opcode: 1 | 2; parts: Uint8Array[]; size: number } | null = null;
  #error: WebSocketError | null = null;

  constructor(maxMessageSize: number) {
    this.maxMessageSize = maxMessageSize;
  }

  /** The whole messages completed by `chunk`; throws WebSocketError when the client breaks a rule. */
  push(chunk: Uint8Array): WebSocketMessage[] {
    if (this.#error) throw this.#error;
    if (chunk.length > 0) { this.#pieces.push(chunk); this.#buffered += chunk.length; }
    const out: WebSocketMessage[] = [];
    try {
      for (;;) {
        const message = this.#nextFrame();
        if (message === undefined) break;
        if (message !== null) out.push(message);
      }
    } catch (error) {
      if (error instanceof WebSocketError) this.#error = error;
      throw error;
    }
    return out;
  }

  /** One frame: a message it completes, null for a fragment, undefined when more bytes are needed. */
  #nextFrame(): WebSocketMessage | null | undefined {
    if (this.#buffered < 2) return undefined;
    const head = this.#peek(Math.min(this.#buffered, 14));
    const fin = (head[0]! & 0x80) !== 0;
    const opcode = head[0]! & 0x0f;
    if ((head[0]! & 0x70) !== 0) throw this.#fail(CloseCode.PROTOCOL_ERROR, 'reserved bits set (no extension was agreed)');
    if ((head[1]! & 0x80) === 0) throw this.#fail(CloseCode.PROTOCOL_ERROR, 'a client frame is not masked');
    let length = head[1]! & 0x7f;
    let at = 2;
    if (length === 126) {
      if (head.length < 4) return undefined;
      length = (head[2]! << 8) | head[3]!;
      at = 4;
    } else if (length === 127) {
      if (head.length < 10) return undefined;
      if (head[2]! & 0x80) throw this.#fail(CloseCode.PROTOCOL_ERROR, 'a 64-bit length with its top bit set');
      const view = new DataView(head.buffer, head.byteOffset, head.length);
      length = view.getUint32(2) * 2 ** 32 + view.getUint32(6);
      at = 10;
    }
    const control = opcode >= 8;
    if (control) {
      if (opcode !== Opcode.CLOSE && opcode !== Opcode.PING && opcode !== Opcode.PONG) throw this.#fail(CloseCode.PROTOCOL_ERROR, `unknown control opcode ${opcode}`);
      if (!fin || length > 125) throw this.#fail(CloseCode.PROTOCOL_ERROR, 'a control frame is fragmented or over 125 bytes');
    } else if (opcode === Opcode.CONTINUATION) {
      if (this.#fragments === null) throw this.#fail(CloseCode.PROTOCOL_ERROR, 'a continuation frame with no message to continue');
    } else if (opcode === Opcode.TEXT || opcode === Opcode.BINARY) {
      if (this.#fragments !== null) throw this.#fail(CloseCode.PROTOCOL_ERROR, 'a new message before the last one finished');
    } else {
      throw this.#fail(CloseCode.PROTOCOL_ERROR, `unknown data opcode ${opcode}`);
    }
    const sofar = control ? 0 : (this.#fragments?.size ?? 0);
    if (!control && sofar + length > this.maxMessageSize) {
      throw this.#fail(CloseCode.MESSAGE_TOO_BIG, `a message of ${sofar + length}+ bytes is over the limit of ${this.maxMessageSize}`);
    }
    if (head.length < at + 4) return undefined;
    if (this.#buffered < at + 4 + length) return undefined;
    const mask = head.subarray(at, at + 4).slice();
    this.#take(at + 4);
    const payload = this.#take(length);
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i & 3]!;
    if (control) return { opcode: opcode as MessageOpcode, payload };
    const fragments = this.#fragments ?? { opcode: opcode as 1 | 2, parts: [], size: 0 };
    fragments.parts.push(payload);
    fragments.size += payload.length;
    if (!fin) { this.#fragments = fragments; return null; }
    this.#fragments = null;
    return { opcode: fragments.opcode, payload: fragments.parts.length === 1 ? fragments.parts[0]! : join(fragments.parts, fragments.size) };
  }

  #fail(code: number, message: string): WebSocketError {
    return new WebSocketError(code, message, this.#offset);
  }

  /** The first n buffered bytes (n <= buffered), joined only when they span pieces. */
  #peek(n: number): Uint8Array {
    const first = this.#pieces[0]!;
    if (first.length >= n) return first.subarray(0, n);
    const out = new Uint8Array(n);
    let filled = 0;
    for (const piece of this.#pieces) {
      const part = piece.subarray(0, n - filled);
      out.set(part, filled);
      filled += part.length;
      if (filled === n) break;
    }
    return out;
  }

  /** Removes and returns the first n buffered bytes, as a fresh copy the caller may change. */
  #take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const piece = this.#pieces[0]!;
      const part = piece.subarray(0, n - filled);
      out.set(part, filled);
      filled += part.length;
      if (part.length === piece.length) this.#pieces.shift();
      else this.#pieces[0] = piece.subarray(part.length);
    }
    this.#buffered -= n;
    this.#offset += n;
    return out;
  }
}

function join(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

/** A server frame's header (FIN set, unmasked) for a payload of `length` bytes; the payload follows as it is. */
export function frameHeader(opcode: MessageOpcode, length: number): Uint8Array {
  if (length < 126) return Uint8Array.of(0x80 | opcode, length);
  if (length < 65536) return Uint8Array.of(0x80 | opcode, 126, length >> 8, length & 0xff);
  const header = new Uint8Array(10);
  header[0] = 0x80 | opcode;
  header[1] = 127;
  const view = new DataView(header.buffer);
  view.setUint32(2, Math.floor(length / 2 ** 32));
  view.setUint32(6, length >>> 0);
  return header;
}

/** A close frame's payload: the code, then the reason as UTF-8 cut to fit a control frame. */
export function closePayload(code: number, reason: string): Uint8Array {
  const text = new TextEncoder().encode(reason).subarray(0, 123);
  const out = new Uint8Array(2 + text.length);
  out[0] = code >> 8;
  out[1] = code & 0xff;
  out.set(text, 2);
  return out;
}

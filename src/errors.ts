// Every failure the codec reports on bad input or bad values is a KafkaWireError: it names
// what went wrong (code), where in the bytes (offset, -1 when encoding, and then the message names no offset) and in which field (path).
export type ErrorCode =
  | 'TRUNCATED' | 'NEGATIVE_LENGTH' | 'VARINT_TOO_LONG' | 'VARINT_OVERFLOW' | 'INVALID_UTF8'
  | 'DUPLICATE_TAG' | 'TAGGED_SIZE_MISMATCH' | 'TRAILING_BYTES' | 'FRAME_SIZE_MISMATCH'
  | 'ARRAY_LIMIT' | 'LENGTH_LIMIT' | 'DEPTH_LIMIT' | 'FRAME_LIMIT' | 'MEMORY_LIMIT'
  | 'UNSUPPORTED_API' | 'UNSUPPORTED_VERSION' | 'INVALID_VALUE' | 'NOT_IN_VERSION' | 'UNKNOWN_FIELD'
  | 'UNSUPPORTED_RUNTIME';

/**
 * The codes reported without words of their own: the scan's (WebAssembly gives a code and a place)
 * and a memory that may not grow. Every other error says what was wrong itself (the constructor
 * requires it), so only these descriptions ship in every bundle.
 */
export type DescribedCode =
  | 'TRUNCATED' | 'NEGATIVE_LENGTH' | 'VARINT_TOO_LONG' | 'VARINT_OVERFLOW' | 'INVALID_UTF8'
  | 'DUPLICATE_TAG' | 'TAGGED_SIZE_MISMATCH' | 'TRAILING_BYTES' | 'FRAME_SIZE_MISMATCH'
  | 'ARRAY_LIMIT' | 'LENGTH_LIMIT' | 'DEPTH_LIMIT' | 'MEMORY_LIMIT';

const DESCRIPTIONS: Record<DescribedCode, string> = {
  TRUNCATED: 'the input ends before the value does',
  NEGATIVE_LENGTH: 'a negative length or count where null is not allowed',
  VARINT_TOO_LONG: 'a varint longer than its type allows',
  VARINT_OVERFLOW: 'a varint that overflows its type',
  INVALID_UTF8: 'a string that is not valid UTF-8',
  DUPLICATE_TAG: 'a tag that appears twice in one tagged-field section',
  TAGGED_SIZE_MISMATCH: 'a tagged field whose declared size does not match its content',
  TRAILING_BYTES: 'bytes left over after the message',
  FRAME_SIZE_MISMATCH: 'a size prefix that does not match the bytes that follow',
  ARRAY_LIMIT: 'an array longer than the maxArrayLength limit',
  LENGTH_LIMIT: 'a string or bytes value longer than the maxLength limit',
  DEPTH_LIMIT: 'structs nested deeper than the maxDepth limit',
  MEMORY_LIMIT: 'more WebAssembly memory than the module may grow to',
};

export class KafkaWireError extends Error {
  override readonly name = 'KafkaWireError';
  // Declared and assigned, not parameter properties: the same object, and smaller in every bundle.
  declare readonly code: ErrorCode;
  declare readonly offset: number;
  declare path: string;
  constructor(code: DescribedCode, offset: number, path: string, detail?: string);
  constructor(code: ErrorCode, offset: number, path: string, detail: string);
  constructor(code: ErrorCode, offset: number, path: string, detail?: string) {
    // Encoding has no offset (-1): the message then says only where in the object.
    super(`${code}${offset >= 0 ? ` at offset ${offset}` : ''}${path ? ` in ${path}` : ''}: ${detail ?? DESCRIPTIONS[code as DescribedCode]}`);
    this.code = code;
    this.offset = offset;
    this.path = path;
  }

  /** The same error one level further out (encoding builds paths from the inside). */
  within(prefix: string): KafkaWireError {
    const joined = this.path === '' ? prefix : this.path.startsWith('[') ? prefix + this.path : `${prefix}.${this.path}`;
    const error = new KafkaWireError(this.code, this.offset, joined, this.message.slice(this.message.indexOf(': ') + 2));
    return error;
  }
}

/**
 * What a runtime cannot do (a browser has no TCP sockets, workerd compiles no WebAssembly from
 * bytes): thrown when the feature is used, never when a module is imported.
 */
export class UnsupportedRuntimeError extends KafkaWireError {
  declare readonly runtime: string;
  declare readonly feature: string;
  constructor(runtime: string, feature: string, hint?: string) {
    super('UNSUPPORTED_RUNTIME', -1, '', `${runtime} has no ${feature}${hint ? `; ${hint}` : ''}`);
    this.runtime = runtime;
    this.feature = feature;
  }
}

/**
 * The runtime this code runs in, as it names itself (navigator.userAgent: "Cloudflare-Workers",
 * "Deno/2.9.6", "Node.js/22"; Node 20 has no navigator).
 */
export function runtimeName(): string {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent ?? 'this runtime';
}

/** A command line the CLI cannot run (exit code 2, with the usage). */
export class UsageError extends Error {}

// One logger for the connection, the producer, the consumer (and what builds on them): four levels,
// a pluggable sink, quiet unless asked, and secrets redacted before any sink sees an entry. Every
// client takes it as its `logger` option, a Logger or the options to make one; observability
// (diagnostics channels, metrics) is a separate, later layer on the same clients.

/** The levels, most severe first; a logger at a level passes that level and the ones above it. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a sink receives: one line's worth, already redacted. */
export interface LogEntry {
  /** Milliseconds since the epoch. */
  time: number;
  level: LogLevel;
  /** Who logged it: 'connection', 'producer', 'consumer', ... */
  component: string;
  message: string;
  /** Structured context (broker, topic, partition, ...); secret-named fields read '[redacted]'. */
  fields: Record<string, unknown>;
}

/** Where entries go: a function per entry (to pino, winston, a test's array, ...). */
export type LogSink = (entry: LogEntry) => void;

export interface LoggerOptions {
  /** The least severe level passed on: 'error', 'warn', 'info' (the default when options are given), 'debug'; 'silent' passes nothing. */
  level?: LogLevel | 'silent';
  /** Default: one line per entry on the console's error stream (stderr in Node). */
  sink?: LogSink;
}

export interface Logger {
  readonly level: LogLevel | 'silent';
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Whether an entry at `level` would reach the sink (to skip building an expensive message). */
  enabled(level: LogLevel): boolean;
  /** The same sink and level, entries marked with `component` and carrying `fields` too. */
  child(component: string, fields?: Record<string, unknown>): Logger;
}

/** The option every client takes: a logger, or the options to make one. */
export type LoggerOption = Logger | LoggerOptions;

/**
 * Option names whose values are secrets, compared with case and punctuation dropped (so
 * `sasl.password`, `clientSecret` and `client_secret` all match): passwords, tokens, client
 * secrets, keys' passphrases, authorisation headers, credentials.
 */
const SECRET_NAME = /password|passwd|passphrase|secret|token|authorization|credential|privatekey|sessionkey/;
const REDACTED = '[redacted]';

/** Whether a field or option of this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** `value` with every secret-named property, at any depth, replaced by '[redacted]'; Errors become their redacted message. */
export function redact(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value instanceof Error) return redactText(`${value.name}: ${value.message}`);
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redact(v, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? REDACTED : redact(v, seen);
  return out;
}

/** Text with the value after a secret name (`password=...`, `token: ...`, `"secret":"..."`) replaced by '[redacted]'. */
export function redactText(text: string): string {
  return text.replace(/([\w.-]*(?:password|passwd|passphrase|secret|token|authorization|credential)[\w.-]*)("?\s*[=:]\s*"?)([^\s",}&]+)/gi,
    (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
}

/** One line per entry on console.error: time, level, component, message, fields as JSON. */
export const consoleSink: LogSink = (entry) => {
  const fields = Object.keys(entry.fields).length === 0 ? ''
    : ` ${JSON.stringify(entry.fields, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`;
  console.error(`${new Date(entry.time).toISOString()} ${entry.level.toUpperCase()} kafka-wire ${entry.component}: ${entry.message}${fields}`);
};

function rank(level: LogLevel | 'silent'): number {
  return level === 'silent' ? -1 : LOG_LEVELS.indexOf(level);
}

class SinkLogger implements Logger {
  constructor(readonly level: LogLevel | 'silent', readonly sink: LogSink, readonly component: string,
    readonly fields: Readonly<Record<string, unknown>>) {}

  enabled(level: LogLevel): boolean {
    return rank(level) <= rank(this.level);
  }

  #log(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    if (!this.enabled(level)) return;
    const entry: LogEntry = { time: Date.now(), level, component: this.component, message: redactText(message),
      fields: redact({ ...this.fields, ...fields }) as Record<string, unknown> };
    try {
      this.sink(entry);
    } catch {
      // A sink that throws must not break the client that logged.
    }
  }

  error(message: string, fields?: Record<string, unknown>): void { this.#log('error', message, fields); }
  warn(message: string, fields?: Record<string, unknown>): void { this.#log('warn', message, fields); }
  info(message: string, fields?: Record<string, unknown>): void { this.#log('info', message, fields); }
  debug(message: string, fields?: Record<string, unknown>): void { this.#log('debug', message, fields); }

  child(component: string, fields?: Record<string, unknown>): Logger {
    return new SinkLogger(this.level, this.sink, component, { ...this.fields, ...fields });
  }
}

/** The logger that passes nothing: what every client uses without a `logger` option. */
export const silentLogger: Logger = new SinkLogger('silent', () => {}, 'kafka-wire', {});

function isLogger(option: LoggerOption): option is Logger {
  return typeof (option as Logger).child === 'function' && typeof (option as Logger).debug === 'function';
}

/**
 * A logger from a client's `logger` option: the logger itself, one made from options (level
 * 'info' and the console unless given), or, without the option, the silent one.
 */
export function createLogger(option?: LoggerOption, component = 'kafka-wire'): Logger {
  if (option === undefined) return silentLogger;
  if (isLogger(option)) return option.child(component);
  return new SinkLogger(option.level ?? 'info', option.sink ?? consoleSink, component, {});
}

/**
 * A logger that also hands each of its own debug messages (redacted) to `callback`, whatever its
 * level: how the consumer's older `debug` option keeps working beside `logger`.
 */
export function withDebugCallback(logger: Logger, callback: ((message: string) => void) | undefined): Logger {
  if (callback === undefined) return logger;
  const sink: LogSink = (entry) => { if (entry.level === 'debug') callback(entry.message); };
  const tap = new SinkLogger('debug', sink, 'debug', {});
  const both = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    logger[level](message, fields);
    if (level === 'debug') tap.debug(message);
  };
  return {
    get level() { return logger.level; },
    error: both('error'), warn: both('warn'), info: both('info'), debug: both('debug'),
    enabled: (level) => level === 'debug' || logger.enabled(level),
    // Children (the connections) log to the logger alone: the callback gets what it always got, the consumer's own lines.
    child: (component, fields) => logger.child(component, fields),
  };
}

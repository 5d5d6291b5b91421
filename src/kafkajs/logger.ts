// kafkajs's logging: levels, a logCreator (level -> (entry) -> void), and loggers with a
// namespace, whose default writes one JSON line per entry to the console as kafkajs does.

export enum logLevel {
  NOTHING = 0,
  ERROR = 1,
  WARN = 2,
  INFO = 4,
  DEBUG = 5,
}

export interface LoggerEntryContent {
  readonly timestamp: string;
  readonly message: string;
  [key: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- kafkajs's declared shape: any extra field
}

export interface LogEntry {
  namespace: string;
  level: logLevel;
  label: string;
  log: LoggerEntryContent;
}

export type logCreator = (logLevel: logLevel) => (entry: LogEntry) => void;

export type Logger = {
  info: (message: string, extra?: object) => void;
  error: (message: string, extra?: object) => void;
  warn: (message: string, extra?: object) => void;
  debug: (message: string, extra?: object) => void;
  namespace: (namespace: string, logLevel?: logLevel) => Logger;
  setLogLevel: (logLevel: logLevel) => void;
};

const LABELS: Record<number, string> = { [logLevel.ERROR]: 'ERROR', [logLevel.WARN]: 'WARN', [logLevel.INFO]: 'INFO', [logLevel.DEBUG]: 'DEBUG' };

/** The default creator: a JSON line per entry, errors and warnings to stderr. */
export const consoleLogCreator: logCreator = () => ({ namespace, level, label, log }) => {
  const line = JSON.stringify({ level: label, ...log, logger: 'kafkajs', ...(namespace ? { namespace } : {}) });
  if (level === logLevel.ERROR) console.error(line);
  else if (level === logLevel.WARN) console.warn(line);
  else console.log(line);
};

/** The level KAFKAJS_LOG_LEVEL names (as kafkajs reads it), when set. */
function levelFromEnv(): logLevel | undefined {
  const name = typeof process === 'undefined' ? undefined : process.env.KAFKAJS_LOG_LEVEL?.toUpperCase();
  return name !== undefined && name in logLevel ? logLevel[name as keyof typeof logLevel] : undefined;
}

/** A root logger: entries at or below `level` go to the creator's function. */
export function createLogger(level: logLevel = logLevel.INFO, creator: logCreator = consoleLogCreator): Logger {
  const state = { level: levelFromEnv() ?? level };
  const write = creator(state.level);
  const make = (namespace: string, own?: logLevel): Logger => {
    const at = (l: logLevel) => (message: string, extra: object = {}) => {
      if (l > (own ?? state.level)) return;
      write({ namespace, level: l, label: LABELS[l]!, log: { timestamp: new Date().toISOString(), message, ...extra } });
    };
    return {
      error: at(logLevel.ERROR), warn: at(logLevel.WARN), info: at(logLevel.INFO), debug: at(logLevel.DEBUG),
      namespace: (ns, l) => make(ns, l ?? own),
      setLogLevel: (l) => { state.level = l; },
    };
  };
  return make('');
}

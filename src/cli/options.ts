// The command line's one option parser. Every command declares its options as OptionSpecs; the
// parser reads `--name value`, `--name=value`, `-x value`, `-xvalue` and bare flags, stops at
// `--`, and refuses unknown options, missing values and values given to flags (UsageError, exit 2).
import { UsageError } from '../errors.js';

export interface OptionSpec {
  /** The long name without dashes: `api-key` is `--api-key`. */
  name: string;
  /** A one-letter alias: `b` is `-b`. */
  short?: string;
  /** The value's placeholder in the help (`K`, `HOST:PORT`); absent for a flag. */
  value?: string;
  /** May be given more than once (`-H k=v -H k2=v2`): the values collect in order. */
  multiple?: boolean;
  /** One line for the help. */
  help: string;
}

/** Option values by long name: a flag is `true`, a valued option its text (all of them with `multiple`). */
export type OptionValues = Record<string, string | string[] | true | undefined>;

export interface ParsedArgs {
  options: OptionValues;
  positionals: string[];
}

/** How the help and errors spell an option: `-b, --broker HOST:PORT`. */
export function optionSynopsis(spec: OptionSpec): string {
  const long = `--${spec.name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
  return spec.short === undefined ? long : `-${spec.short}, ${long}`;
}

export function parseOptions(args: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short !== undefined).map((s) => [s.short!, s]));
  const options: OptionValues = {};
  const positionals: string[] = [];
  const set = (spec: OptionSpec, value: string | true) => {
    if (spec.multiple && typeof value === 'string') {
      const list = options[spec.name];
      options[spec.name] = Array.isArray(list) ? [...list, value] : [value];
    } else {
      options[spec.name] = value;
    }
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    let spec: OptionSpec | undefined;
    let inline: string | undefined;
    let shown: string;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      shown = eq < 0 ? arg : arg.slice(0, eq);
      spec = byLong.get(shown.slice(2));
      if (eq >= 0) inline = arg.slice(eq + 1);
    } else {
      shown = arg.slice(0, 2);
      spec = byShort.get(arg[1]);
      if (arg.length > 2) inline = arg.slice(2);
    }
    if (spec === undefined) throw new UsageError(`unknown option ${shown}`);
    if (spec.value === undefined) {
      if (inline !== undefined) throw new UsageError(`${shown} takes no value`);
      set(spec, true);
      continue;
    }
    // A valued option takes the next argument whatever it looks like (`-o -5` is offset -5).
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`${shown} needs a value (${spec.value})`);
    set(spec, value);
  }
  return { options, positionals };
}

/** A valued option's text, or undefined when it was not given. */
export function stringOption(options: OptionValues, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** An integer option or argument; `what` names it in the error. */
export function integerArg(text: string | undefined, what: string, min = -(2 ** 31), max = 2 ** 31 - 1): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${what} must be an integer from ${min} to ${max}, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

// What the admin commands (topics, configs, records, cluster) share: the connection options with
// Kafka's tools' --bootstrap-server beside -b, an Admin for the run, -J's JSON lines, tables in
// the shape Kafka's tools print, and a batch call's partial failure as one stderr line per
// failed resource (exit 1) after the successes are printed.
import { Admin, AdminError } from '../admin/index.js';
import { UsageError } from '../errors.js';
import type { Io } from './command.js';
import { clientOptionsFrom, NETWORK_OPTIONS } from './client-options.js';
import { stringOption, type OptionSpec, type OptionValues } from './options.js';

export const ADMIN_OPTIONS: readonly OptionSpec[] = [
  ...NETWORK_OPTIONS,
  { name: 'bootstrap-server', value: 'HOST:PORT', help: 'as -b (the name Kafka\'s tools give it)' },
  { name: 'json', short: 'J', help: 'JSON lines (int64 as decimal strings) instead of the table' },
];

/** Runs `use` with an Admin from the options, closed after it; bad input becomes a usage error (exit 2). */
export async function withAdmin(values: OptionValues, use: (admin: Admin) => Promise<number>): Promise<number> {
  const given = stringOption(values, 'bootstrap-server');
  if (given !== undefined && values.broker !== undefined && values.broker !== given) throw new UsageError('give -b or --bootstrap-server, not both');
  const admin = new Admin(clientOptionsFrom({ ...values, broker: values.broker ?? given }));
  try {
    return await use(admin);
  } catch (error) {
    if (error instanceof AdminError && error.code === 'INVALID_ARGUMENT') throw new UsageError(error.message);
    throw error;
  } finally {
    await admin.close();
  }
}

/** One value as a JSON line: bigint as a decimal string, bytes as lowercase hex. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)) + '\n';
}

/**
 * A batch call's results: what succeeded (`show` prints each), then each failure on stderr; exit
 * 1 when any failed. A failure of the whole call (not per resource) is thrown on.
 */
export async function perResource<T>(io: Io, call: Promise<T[]>, show: (value: T) => void): Promise<number> {
  try {
    for (const value of await call) show(value);
    return 0;
  } catch (error) {
    if (!(error instanceof AdminError) || error.code !== 'RESOURCES') throw error;
    for (const value of error.succeeded as T[]) show(value);
    for (const failure of error.failures) io.stderr.write(`kafka-wire: ${failure.message}\n`);
    return 1;
  }
}

/** Columns padded to their widest cell, two spaces apart (kafka-consumer-groups.sh's tables). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd() + '\n';
  return line(header) + rows.map(line).join('');
}

/** Repeatable and comma-separated values (`--config a=1 --config b=2`, `--delete-config a,b`) as one list. */
export function listOption(values: OptionValues, name: string, splitCommas: boolean): string[] {
  const given = values[name];
  const list = given === undefined ? [] : Array.isArray(given) ? given : [String(given)];
  return splitCommas ? list.flatMap(splitTopLevel) : list;
}

/** "a=1,b=[x,y]" split at the commas outside brackets (kafka-configs.sh's list values). */
export function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']') depth = Math.max(0, depth - 1);
    else if (text[i] === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

/** "k=v" as [k, v] ("[a,b]" values as "a,b"); `what` names the option in the error. */
export function keyValue(text: string, what: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`${what} takes NAME=VALUE, not ${JSON.stringify(text)}`);
  const value = text.slice(eq + 1);
  return [text.slice(0, eq), value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value];
}

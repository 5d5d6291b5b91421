// `kafka-wire users scram describe|alter`: SCRAM credentials as kafka-configs.sh handles them
// (--entity-type users): --add-config 'SCRAM-SHA-256=[iterations=8192,password=PW]' creates or
// replaces one (salted and hashed here: the password never crosses the wire, and is never
// printed), --delete-config SCRAM-SHA-512 removes one.
import type { ScramAlteration, ScramMechanismName } from '../admin/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, listOption, perResource, splitTopLevel, withAdmin } from './admin-common.js';
import { type ParsedArgs } from './options.js';

const MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512'];

export const users: Command = {
  name: 'users',
  summary: 'users\' SCRAM credentials: describe (mechanisms and iterations, never secrets), create or replace, delete',
  synopsis: [
    'scram describe -b HOST:PORT [--user USER]...',
    'scram alter -b HOST:PORT --user USER [--add-config \'SCRAM-SHA-256=[iterations=8192,password=PW]\'] [--delete-config SCRAM-SHA-512]',
  ],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'user', value: 'USER', multiple: true, help: 'the user (kafka-configs.sh\'s --entity-name of --entity-type users)' },
    { name: 'add-config', value: 'MECH=[iterations=N,password=PW]', multiple: true, help: 'alter: create or replace a credential (iterations default 4096)' },
    { name: 'delete-config', value: 'MECH', multiple: true, help: 'alter: delete a credential' },
  ],
  run: runUsers,
};

async function runUsers({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const [group, action, ...rest] = positionals;
  if (group !== 'scram' || (action !== 'describe' && action !== 'alter')) throw new UsageError('users needs scram describe or scram alter');
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const names = listOption(values, 'user', false);
  const json = values.json === true;
  if (action === 'describe') {
    return withAdmin(values, (admin) => perResource(io, admin.describeScramCredentials(names.length > 0 ? names : undefined), (u) => {
      io.stdout.write(json ? jsonLine(u) : `SCRAM credential configs for user-principal '${u.user}' are ${u.credentials.map((c) => `${c.mechanism}=iterations=${c.iterations}`).join(', ')}\n`);
    }));
  }
  if (names.length !== 1) throw new UsageError('users scram alter needs one --user');
  const user = names[0]!;
  const alterations: ScramAlteration[] = [];
  for (const c of listOption(values, 'add-config', true)) {
    const m = /^(SCRAM-SHA-(?:256|512))=\[(.*)\]$/.exec(c);
    if (!m) throw new UsageError('--add-config takes SCRAM-SHA-256=[iterations=N,password=PW] or SCRAM-SHA-256=[password=PW]');
    const fields = Object.fromEntries(splitTopLevel(m[2]!).map((f) => [f.slice(0, f.indexOf('=')), f.slice(f.indexOf('=') + 1)]));
    if (!fields.password) throw new UsageError(`--add-config ${m[1]}: a credential needs password=...`);
    alterations.push({ user, mechanism: m[1] as ScramMechanismName, password: fields.password, ...(fields.iterations ? { iterations: Number(fields.iterations) } : {}) });
  }
  for (const mechanism of listOption(values, 'delete-config', true)) {
    if (!MECHANISMS.includes(mechanism)) throw new UsageError(`--delete-config takes SCRAM-SHA-256 or SCRAM-SHA-512, not ${JSON.stringify(mechanism)}`);
    alterations.push({ user, mechanism: mechanism as ScramMechanismName, delete: true });
  }
  if (alterations.length === 0) throw new UsageError('users scram alter needs --add-config or --delete-config');
  let printed = false;
  return withAdmin(values, (admin) => perResource(io, admin.alterScramCredentials(alterations), () => {
    if (printed) return;
    printed = true;
    io.stdout.write(json ? jsonLine({ user, altered: true }) : `Completed updating config for user ${user}.\n`);
  }));
}

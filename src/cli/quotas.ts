// `kafka-wire quotas describe|alter`: client quotas as kafka-configs.sh handles them for users,
// clients and ips (--entity-type users|clients|ips, --entity-name or --entity-default, both a
// user and a client for a user's quota on one client; --add-config k=v,..., --delete-config k,...).
import type { QuotaEntity } from '../admin/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, keyValue, listOption, perResource, withAdmin } from './admin-common.js';
import { type OptionValues, type ParsedArgs } from './options.js';

const TYPES: Record<string, 'user' | 'client-id' | 'ip'> = { users: 'user', clients: 'client-id', ips: 'ip' };
/** kafka-configs.sh's words for each entity type in its output. */
const LABELS: Record<string, string> = { user: 'user-principal', 'client-id': 'client-id', ip: 'ip' };

export const quotas: Command = {
  name: 'quotas',
  summary: 'client quotas (bytes per second, request time, connection rates) of users, client ids and ips',
  synopsis: [
    'describe -b HOST:PORT [--entity-type users|clients|ips (--entity-name NAME | --entity-default)]...',
    'alter -b HOST:PORT --entity-type users|clients|ips (--entity-name NAME | --entity-default)... [--add-config K=V,...] [--delete-config K,...] [--validate-only]',
  ],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'entity-type', value: 'TYPE', multiple: true, help: 'users, clients or ips (twice, users and clients, for one user\'s quota on one client)' },
    { name: 'entity-name', value: 'NAME', multiple: true, help: 'the entity, in the order of the --entity-type options' },
    { name: 'entity-default', multiple: true, value: 'TYPE', help: 'the default quota of users, clients or ips' },
    { name: 'add-config', value: 'K=V,...', multiple: true, help: 'alter: producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate, connection_creation_rate' },
    { name: 'delete-config', value: 'K,...', multiple: true, help: 'alter: remove these quotas' },
    { name: 'validate-only', help: 'alter: let the broker check the change without making it' },
  ],
  run: runQuotas,
};

function entityFrom(values: OptionValues, required: boolean): QuotaEntity {
  const types = listOption(values, 'entity-type', false);
  const names = listOption(values, 'entity-name', false);
  const defaults = listOption(values, 'entity-default', false);
  if (types.length !== names.length) throw new UsageError('give an --entity-name for each --entity-type (or --entity-default TYPE)');
  const entity: QuotaEntity = {};
  types.forEach((t, i) => { const type = TYPES[t]; if (!type) throw new UsageError(`--entity-type must be users, clients or ips, not ${JSON.stringify(t)}`); entity[type] = names[i]!; });
  for (const t of defaults) { const type = TYPES[t]; if (!type) throw new UsageError(`--entity-default takes users, clients or ips, not ${JSON.stringify(t)}`); entity[type] = null; }
  if (required && Object.keys(entity).length === 0) throw new UsageError('quotas alter needs --entity-type and --entity-name (or --entity-default TYPE)');
  return entity;
}

const entityText = (e: QuotaEntity) => Object.entries(e).map(([t, n]) => `${LABELS[t]} ${n === null ? '<default>' : `'${n}'`}`).join(', ');

async function runQuotas({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const [action, ...rest] = positionals;
  if (action !== 'describe' && action !== 'alter') throw new UsageError(`quotas needs describe or alter${action ? `, not ${JSON.stringify(action)}` : ''}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const entity = entityFrom(values, action === 'alter');
  const json = values.json === true;
  if (action === 'describe') {
    return withAdmin(values, async (admin) => {
      for (const q of await admin.describeClientQuotas(entity, { strict: Object.keys(entity).length > 0 })) {
        io.stdout.write(json ? jsonLine(q) : `Quota configs for ${entityText(q.entity)} are ${Object.entries(q.values).map(([k, v]) => `${k}=${Number.isInteger(v) ? v.toFixed(1) : v}`).join(', ')}\n`);
      }
      return 0;
    });
  }
  const changes: Record<string, number | null> = {};
  for (const c of listOption(values, 'add-config', true)) {
    const [k, v] = keyValue(c, '--add-config');
    if (!/^\d+(\.\d+)?$/.test(v)) throw new UsageError(`--add-config ${k}: a quota is a number, not ${JSON.stringify(v)}`);
    changes[k] = Number(v);
  }
  for (const k of listOption(values, 'delete-config', true)) changes[k] = null;
  if (Object.keys(changes).length === 0) throw new UsageError('quotas alter needs --add-config or --delete-config');
  return withAdmin(values, (admin) => perResource(io, admin.alterClientQuotas([{ entity, values: changes }], { validateOnly: values['validate-only'] === true }), (e) => {
    io.stdout.write(json ? jsonLine({ entity: e, values: changes }) : `Completed updating config for ${entityText(e)}.\n`);
  }));
}

// `kafka-wire configs describe|alter`: Kafka's kafka-configs.sh over the admin client, with its
// option names (--entity-type topics|brokers|broker-loggers|groups|client-metrics, --entity-name,
// --entity-default, --all, --add-config k=v,k2=[a,b], --delete-config k,k2) and its output
// ("Dynamic configs for topic t are:", a line per config with its sensitivity and synonyms);
// --append-config and --subtract-config reach IncrementalAlterConfigs' list operations. -J: JSON lines.
import type { Admin, ConfigChange, ConfigDescription, ConfigEntry, ConfigResourceType, ConfigSource } from '../admin/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, keyValue, listOption, perResource, withAdmin } from './admin-common.js';
import { stringOption, type OptionValues, type ParsedArgs } from './options.js';

/** kafka-configs.sh's entity types, what each is in the admin client, and the config source its "Dynamic configs" shows. */
const ENTITY_TYPES: Record<string, { type: ConfigResourceType; label: string; dynamic: ConfigSource | null }> = {
  topics: { type: 'topic', label: 'topic', dynamic: 'DYNAMIC_TOPIC_CONFIG' },
  brokers: { type: 'broker', label: 'broker', dynamic: 'DYNAMIC_BROKER_CONFIG' },
  'broker-loggers': { type: 'broker-logger', label: 'broker-logger', dynamic: null },
  groups: { type: 'group', label: 'group', dynamic: 'DYNAMIC_GROUP_CONFIG' },
  'client-metrics': { type: 'client-metrics', label: 'client-metric', dynamic: 'DYNAMIC_CLIENT_METRICS_CONFIG' },
};

export const configs: Command = {
  name: 'configs',
  summary: 'configs as kafka-configs.sh shows and changes them: topics, brokers, broker loggers, groups, client metrics',
  synopsis: [
    'describe -b HOST:PORT --entity-type TYPE (--entity-name NAME | --entity-default) [--all]',
    'alter -b HOST:PORT --entity-type TYPE (--entity-name NAME | --entity-default) [--add-config K=V,...] [--delete-config K,...] [--append-config K=V] [--subtract-config K=V] [--validate-only]',
  ],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'entity-type', value: 'TYPE', help: `${Object.keys(ENTITY_TYPES).join(', ')}` },
    { name: 'entity-name', value: 'NAME', help: 'the topic, group or client-metrics name, or the broker\'s id' },
    { name: 'entity-default', help: 'brokers: the cluster-wide default every broker takes' },
    { name: 'all', help: 'describe: every config, not only the ones set dynamically' },
    { name: 'add-config', value: 'K=V,...', multiple: true, help: 'alter: set configs (a list value in brackets: k=[a,b])' },
    { name: 'delete-config', value: 'K,...', multiple: true, help: 'alter: back to the default' },
    { name: 'append-config', value: 'K=V,...', multiple: true, help: 'alter: add items to a list config' },
    { name: 'subtract-config', value: 'K=V,...', multiple: true, help: 'alter: remove items from a list config' },
    { name: 'validate-only', help: 'alter: let the broker check the change without making it' },
  ],
  run: runConfigs,
};

function entityArgs(values: OptionValues): { type: ConfigResourceType; name: string; label: string; dynamic: ConfigSource | null } {
  const typeName = stringOption(values, 'entity-type');
  const entity = typeName === undefined ? undefined : ENTITY_TYPES[typeName];
  if (entity === undefined) {
    throw new UsageError(`--entity-type must be ${Object.keys(ENTITY_TYPES).join(', ')}${typeName ? `, not ${JSON.stringify(typeName)}` : ''}${['users', 'clients', 'ips'].includes(typeName ?? '') ? ' (quotas are kafka-wire quotas)' : ''}`);
  }
  const name = stringOption(values, 'entity-name');
  if (values['entity-default'] === true) {
    if (name !== undefined) throw new UsageError('give --entity-name or --entity-default, not both');
    if (entity.type !== 'broker') throw new UsageError('--entity-default is for --entity-type brokers');
    return { ...entity, name: '', dynamic: 'DYNAMIC_DEFAULT_BROKER_CONFIG' };
  }
  if (name === undefined) throw new UsageError('configs needs --entity-name NAME (or --entity-default for brokers)');
  return { ...entity, name };
}

async function runConfigs({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const [action, ...rest] = positionals;
  if (action !== 'describe' && action !== 'alter') throw new UsageError(`configs needs describe or alter${action ? `, not ${JSON.stringify(action)}` : ''}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const entity = entityArgs(values);
  const json = values.json === true;
  const changes = action === 'alter' ? changesFrom(values) : [];
  return withAdmin(values, async (admin) => (action === 'describe' ? describe(admin, entity, values.all === true, io, json) : alter(admin, entity, changes, values['validate-only'] === true, io, json)));
}

function changesFrom(values: OptionValues): ConfigChange[] {
  const changes: ConfigChange[] = [
    ...listOption(values, 'add-config', true).map((c) => { const [name, value] = keyValue(c, '--add-config'); return { name, op: 'set' as const, value }; }),
    ...listOption(values, 'delete-config', true).map((name) => ({ name, op: 'delete' as const })),
    ...listOption(values, 'append-config', true).map((c) => { const [name, value] = keyValue(c, '--append-config'); return { name, op: 'append' as const, value }; }),
    ...listOption(values, 'subtract-config', true).map((c) => { const [name, value] = keyValue(c, '--subtract-config'); return { name, op: 'subtract' as const, value }; }),
  ];
  if (changes.length === 0) throw new UsageError('configs alter needs --add-config, --delete-config, --append-config or --subtract-config');
  return changes;
}

async function describe(admin: Admin, entity: ReturnType<typeof entityArgs>, all: boolean, io: Io, json: boolean): Promise<number> {
  return perResource(io, admin.describeConfigs([{ type: entity.type, name: entity.name }]), (d: ConfigDescription) => {
    const shown = all || entity.dynamic === null ? d.entries : d.entries.filter((e) => e.source === entity.dynamic);
    const sorted = shown.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (json) { io.stdout.write(jsonLine({ ...d, entries: sorted })); return; }
    const what = entity.name === '' ? `Default configs for brokers in the cluster are:` : `${all || entity.dynamic === null ? 'All' : 'Dynamic'} configs for ${entity.label} ${entity.name} are:`;
    io.stdout.write(`${what}\n${sorted.map(configLine).join('')}`);
  });
}

/** kafka-configs.sh's line for one config. */
export function configLine(e: ConfigEntry): string {
  const synonyms = e.synonyms.map((s) => `${s.source}:${s.name}=${s.value ?? 'null'}`).join(', ');
  return `  ${e.name}=${e.value ?? 'null'} sensitive=${e.isSensitive} synonyms={${synonyms}}\n`;
}

async function alter(admin: Admin, entity: ReturnType<typeof entityArgs>, changes: ConfigChange[], validateOnly: boolean, io: Io, json: boolean): Promise<number> {
  return perResource(io, admin.alterConfigs([{ type: entity.type, name: entity.name, changes }], { validateOnly }), (r) => {
    if (json) io.stdout.write(jsonLine({ ...r, changes, validateOnly }));
    else if (validateOnly) io.stdout.write(`The config for ${entity.label} ${entity.name} could be updated (validate only).\n`);
    else io.stdout.write(entity.name === '' ? 'Completed updating default config for brokers in the cluster.\n' : `Completed updating config for ${entity.label} ${entity.name}.\n`);
  });
}

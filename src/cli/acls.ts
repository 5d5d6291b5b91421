// `kafka-wire acls list|add|remove`: kafka-acls.sh over the admin client, with its option names
// (--topic, --group, --cluster, --transactional-id, --user-principal, --resource-pattern-type,
// --allow-principal, --deny-principal, --allow-host, --deny-host, --operation, --principal) and
// its listing ("Current ACLs for resource `ResourcePattern(...)`:" and an entry per line).
import type { AclBinding, AclFilter, Admin } from '../admin/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, listOption, perResource, withAdmin } from './admin-common.js';
import { stringOption, type OptionValues, type ParsedArgs } from './options.js';

export const acls: Command = {
  name: 'acls',
  summary: 'ACLs as kafka-acls.sh lists, adds and removes them',
  synopsis: [
    'list -b HOST:PORT [--topic T | --group G | --cluster | --transactional-id T | --user-principal P] [--resource-pattern-type TYPE] [--principal P]',
    'add -b HOST:PORT (--allow-principal P | --deny-principal P)... --operation OP... (--topic T | --group G | --cluster | --transactional-id T | --user-principal P) [--resource-pattern-type LITERAL|PREFIXED] [--allow-host H] [--deny-host H]',
    'remove -b HOST:PORT [the same as add: what to match]',
  ],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'topic', value: 'TOPIC', help: 'a topic (a name, a prefix with --resource-pattern-type PREFIXED, or * for every topic)' },
    { name: 'group', value: 'GROUP', help: 'a consumer group' },
    { name: 'cluster', help: 'the cluster' },
    { name: 'transactional-id', value: 'ID', help: 'a transactional id' },
    { name: 'user-principal', value: 'PRINCIPAL', help: 'a user (for delegation tokens created on its behalf)' },
    { name: 'resource-pattern-type', value: 'TYPE', help: 'LITERAL (default for add), PREFIXED; list and remove also ANY, MATCH' },
    { name: 'allow-principal', value: 'PRINCIPAL', multiple: true, help: 'add, remove: User:NAME to allow' },
    { name: 'deny-principal', value: 'PRINCIPAL', multiple: true, help: 'add, remove: User:NAME to deny' },
    { name: 'allow-host', value: 'HOST', multiple: true, help: 'the hosts the allow applies from (default *)' },
    { name: 'deny-host', value: 'HOST', multiple: true, help: 'the hosts the deny applies from (default *)' },
    { name: 'operation', value: 'OP', multiple: true, help: 'Read, Write, Create, Delete, Alter, Describe, ClusterAction, DescribeConfigs, AlterConfigs, IdempotentWrite, CreateTokens, DescribeTokens, TwoPhaseCommit, All' },
    { name: 'principal', value: 'PRINCIPAL', help: 'list: only the ACLs of this principal' },
  ],
  run: runAcls,
};

/** The resource the options name, as a filter's resource part. */
function resourceFrom(values: OptionValues, adding: boolean): Pick<AclFilter, 'resourceType' | 'resourceName' | 'patternType'> {
  const given = [
    ['topic', 'TOPIC'], ['group', 'GROUP'], ['transactional-id', 'TRANSACTIONAL_ID'], ['user-principal', 'USER'],
  ].filter(([name]) => values[name!] !== undefined).map(([name, type]) => ({ resourceType: type as AclBinding['resourceType'], resourceName: stringOption(values, name!)! }));
  if (values.cluster) given.push({ resourceType: 'CLUSTER', resourceName: 'kafka-cluster' });
  if (given.length > 1) throw new UsageError('name one resource: --topic, --group, --cluster, --transactional-id or --user-principal');
  const pattern = (stringOption(values, 'resource-pattern-type') ?? (adding ? 'LITERAL' : undefined))?.toUpperCase() as AclBinding['patternType'] | undefined;
  if (given.length === 0) {
    if (adding) throw new UsageError('acls add needs a resource: --topic, --group, --cluster, --transactional-id or --user-principal');
    return pattern ? { patternType: pattern } : {};
  }
  return { ...given[0]!, patternType: pattern ?? 'LITERAL' };
}

/** Kafka's tools spell operations in CamelCase (DescribeConfigs); the wire's names are DESCRIBE_CONFIGS. */
function operationName(text: string): AclBinding['operation'] {
  return text.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase() as AclBinding['operation'];
}

/** Every entry the principals, hosts and operations of add (or remove) make. */
function entriesFrom(values: OptionValues, adding: boolean): Omit<AclBinding, 'resourceType' | 'resourceName' | 'patternType'>[] {
  const ops = listOption(values, 'operation', true).map(operationName);
  const out: Omit<AclBinding, 'resourceType' | 'resourceName' | 'patternType'>[] = [];
  for (const [permission, principals, hosts] of [
    ['ALLOW', listOption(values, 'allow-principal', false), listOption(values, 'allow-host', false)],
    ['DENY', listOption(values, 'deny-principal', false), listOption(values, 'deny-host', false)],
  ] as const) {
    for (const principal of principals) for (const host of hosts.length ? hosts : ['*']) for (const operation of ops.length ? ops : adding ? [] : [undefined]) {
      out.push({ principal, host, operation: operation as AclBinding['operation'], permission });
    }
  }
  if (adding && (out.length === 0 || ops.length === 0)) throw new UsageError('acls add needs --allow-principal or --deny-principal, and --operation');
  return out;
}

async function runAcls({ options: values, positionals }: ParsedArgs, io: Io): Promise<number> {
  const [action, ...rest] = positionals;
  if (action !== 'list' && action !== 'add' && action !== 'remove') throw new UsageError(`acls needs list, add or remove${action ? `, not ${JSON.stringify(action)}` : ''}`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const json = values.json === true;
  return withAdmin(values, async (admin) => {
    if (action === 'list') {
      const principal = stringOption(values, 'principal');
      const found = await admin.describeAcls({ ...resourceFrom(values, false), ...(principal ? { principal } : {}) });
      if (json) for (const a of found) io.stdout.write(jsonLine(a));
      else io.stdout.write(listing(found));
      return 0;
    }
    const resource = resourceFrom(values, action === 'add');
    const entries = entriesFrom(values, action === 'add');
    if (action === 'add') {
      return perResource(io, admin.createAcls(entries.map((e) => ({ ...resource, ...e }) as AclBinding)), (a) => {
        io.stdout.write(json ? jsonLine(a) : `Added ACL ${entryText(a)} for resource ${patternText(a)}\n`);
      });
    }
    const filters = entries.length > 0 ? entries.map((e) => ({ ...resource, ...e })) : [resource];
    return remove(admin, filters, io, json);
  });
}

async function remove(admin: Admin, filters: AclFilter[], io: Io, json: boolean): Promise<number> {
  return perResource(io, admin.deleteAcls(filters), (deleted) => {
    for (const a of deleted) io.stdout.write(json ? jsonLine(a) : `Removed ACL ${entryText(a)} for resource ${patternText(a)}\n`);
  });
}

const patternText = (a: AclBinding) => `\`ResourcePattern(resourceType=${a.resourceType}, name=${a.resourceName}, patternType=${a.patternType})\``;
const entryText = (a: AclBinding) => `(principal=${a.principal}, host=${a.host}, operation=${a.operation}, permissionType=${a.permission})`;

/** kafka-acls.sh --list's text: each resource, then its entries. */
export function listing(found: readonly AclBinding[]): string {
  const byResource = new Map<string, AclBinding[]>();
  for (const a of found) byResource.set(patternText(a), [...(byResource.get(patternText(a)) ?? []), a]);
  return [...byResource].map(([pattern, list]) => `Current ACLs for resource ${pattern}:\n${list.map((a) => `\t${entryText(a)}`).join('\n')}\n\n`).join('');
}

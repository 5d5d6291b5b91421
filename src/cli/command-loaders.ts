// The command table: every command of the CLI by name, in the order the help lists them, each
// loaded on its own, so running one command loads its modules only (start-up time counts for a
// bulk load: `kafka-wire produce` should not compile the explainer, the proxy and the site
// generator first). Adding a command is one module exporting a Command and one entry here.
import type { Command } from './command.js';

export const COMMAND_LOADERS: Readonly<Record<string, () => Promise<Command>>> = {
  decode: async () => (await import('./codec-commands.js')).decode,
  encode: async () => (await import('./codec-commands.js')).encode,
  explain: async () => (await import('./explain.js')).explain,
  sample: async () => (await import('./explain.js')).sample,
  site: async () => (await import('./explain.js')).site,
  demo: async () => (await import('./explain.js')).demo,
  metadata: async () => (await import('./metadata.js')).metadata,
  produce: async () => (await import('./produce.js')).produce,
  consume: async () => (await import('./consume.js')).consume,
  group: async () => (await import('./group.js')).group,
  topics: async () => (await import('./topics.js')).topics,
  configs: async () => (await import('./configs.js')).configs,
  acls: async () => (await import('./acls.js')).acls,
  quotas: async () => (await import('./quotas.js')).quotas,
  reassign: async () => (await import('./reassign.js')).reassign,
  records: async () => (await import('./records.js')).records,
  users: async () => (await import('./users.js')).users,
  features: async () => (await import('./cluster.js')).features,
  transactions: async () => (await import('./transactions.js')).transactions,
  cluster: async () => (await import('./cluster.js')).cluster,
  perf: async () => (await import('./perf.js')).perf,
  broker: async () => (await import('./broker.js')).broker,
  pcap: async () => (await import('./pcap.js')).pcap,
  proxy: async () => (await import('./proxy.js')).proxy,
  bridge: async () => (await import('./bridge.js')).bridge,
};

/** Every command, loaded, in the table's order (for the help, the reference and "unknown command"). */
export function loadAllCommands(): Promise<Command[]> {
  return Promise.all(Object.values(COMMAND_LOADERS).map((load) => load()));
}

// `kafka-wire cluster describe` (kafka-cluster.sh's cluster id, with the controller and the
// brokers) and `kafka-wire features describe` (kafka-features.sh describe, metadata.version by its
// release name): over the admin client.
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, table, withAdmin } from './admin-common.js';
import { metadataVersionName } from '../admin/metadata-versions.js';
import type { ParsedArgs } from './options.js';

function only(action: string, positionals: string[], command: string): void {
  if (positionals[0] !== action) throw new UsageError(`${command} needs ${action}${positionals[0] ? `, not ${JSON.stringify(positionals[0])}` : ''}`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}`);
}

export const cluster: Command = {
  name: 'cluster',
  summary: 'the cluster: its id, controller and brokers (with racks)',
  synopsis: ['describe -b HOST:PORT [--include-fenced]'],
  options: [...ADMIN_OPTIONS, { name: 'include-fenced', help: 'brokers the controller has fenced too' }],
  run: async ({ options: values, positionals }: ParsedArgs, io: Io) => {
    only('describe', positionals, 'cluster');
    return withAdmin(values, async (admin) => {
      const d = await admin.describeCluster({ includeFenced: values['include-fenced'] === true });
      if (values.json) io.stdout.write(jsonLine(d));
      else {
        io.stdout.write(`Cluster ID: ${d.clusterId}\nController: ${d.controllerId}\n`);
        io.stdout.write(table(['BROKER', 'HOST', 'PORT', 'RACK', 'FENCED'], d.brokers.map((b) => [String(b.nodeId), b.host, String(b.port), b.rack ?? '-', String(b.fenced)])));
      }
      return 0;
    });
  },
};

export const features: Command = {
  name: 'features',
  summary: 'the cluster\'s feature levels: kafka-features.sh describe\'s fields, a line per feature',
  synopsis: ['describe -b HOST:PORT'],
  options: ADMIN_OPTIONS,
  notes: ['metadata.version\'s levels are shown by their release names (4.4-IV2 for 33), as kafka-features.sh shows them; -J gives the numbers.'],
  run: async ({ options: values, positionals }: ParsedArgs, io: Io) => {
    only('describe', positionals, 'features');
    return withAdmin(values, async (admin) => {
      const f = await admin.describeFeatures();
      if (values.json) { io.stdout.write(jsonLine(f)); return 0; }
      // kafka-features.sh describe's line: its columns padded as its format string pads them.
      const level = (name: string, n: number) => (name === 'metadata.version' ? metadataVersionName(n) ?? String(n) : String(n));
      for (const name of Object.keys(f.supported).sort()) {
        const s = f.supported[name]!;
        const finalized = f.finalized[name]?.maxVersionLevel ?? 0;
        io.stdout.write(`Feature: ${name.padEnd(40)}  SupportedMinVersion: ${level(name, s.minVersion).padEnd(15)}  SupportedMaxVersion: ${level(name, s.maxVersion).padEnd(15)}  `
          + `FinalizedVersionLevel: ${level(name, finalized).padEnd(15)}  Epoch: ${f.finalizedEpoch < 0n ? '-' : String(f.finalizedEpoch)}\n`);
      }
      return 0;
    });
  },
};

// `kafka-wire records delete`: kafka-delete-records.sh over the admin client: every record before
// an offset goes, per partition, from --offset-json-file (Kafka's file: {"partitions":[{"topic",
// "partition","offset"}],"version":1}) or one --topic/--partition/--offset; prints each
// partition's new low watermark as Kafka's tool does.
import { readFileSync } from 'node:fs';
import type { RecordsToDelete } from '../admin/index.js';
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, perResource, withAdmin } from './admin-common.js';
import { integerArg, stringOption, type OptionValues, type ParsedArgs } from './options.js';

export const records: Command = {
  name: 'records',
  summary: 'delete the records before an offset, as kafka-delete-records.sh does',
  synopsis: ['delete -b HOST:PORT --offset-json-file FILE', 'delete -b HOST:PORT --topic TOPIC --partition N --offset OFFSET'],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'offset-json-file', value: 'FILE', help: 'Kafka\'s file: {"partitions":[{"topic":"t","partition":0,"offset":10}],"version":1} (offset -1: the high watermark)' },
    { name: 'topic', short: 't', value: 'TOPIC', help: 'the topic (without a file)' },
    { name: 'partition', short: 'p', value: 'N', help: 'the partition (without a file)' },
    { name: 'offset', value: 'OFFSET', help: 'delete every record before this offset (-1: all, up to the high watermark)' },
  ],
  run: async ({ options: values, positionals }: ParsedArgs, io: Io) => {
    if (positionals[0] !== 'delete' || positionals.length > 1) throw new UsageError('records needs delete');
    const deletions = deletionsFrom(values);
    return withAdmin(values, async (admin) => {
      if (!values.json) io.stdout.write('Executing records delete operation\nRecords delete operation completed:\n');
      return perResource(io, admin.deleteRecords(deletions), (d) => {
        io.stdout.write(values.json ? jsonLine(d) : `partition: ${d.topic}-${d.partition}\tlow_watermark: ${d.lowWatermark}\n`);
      });
    });
  },
};

function deletionsFrom(values: OptionValues): RecordsToDelete[] {
  const file = stringOption(values, 'offset-json-file');
  if (file !== undefined) {
    if (values.topic !== undefined || values.partition !== undefined || values.offset !== undefined) throw new UsageError('give --offset-json-file or --topic/--partition/--offset, not both');
    let parsed: { partitions?: { topic: string; partition: number; offset: number | string }[] };
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`--offset-json-file ${file}: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed.partitions)) throw new UsageError(`--offset-json-file ${file}: no "partitions" list`);
    return parsed.partitions.map((p) => ({ topic: p.topic, partition: p.partition, before: BigInt(p.offset) }));
  }
  const topic = stringOption(values, 'topic');
  const partition = integerArg(stringOption(values, 'partition'), '--partition', 0);
  const offset = stringOption(values, 'offset');
  if (topic === undefined || partition === undefined || offset === undefined || !/^-?\d+$/.test(offset)) throw new UsageError('records delete needs --offset-json-file, or --topic, --partition and an integer --offset');
  return [{ topic, partition, before: BigInt(offset) }];
}

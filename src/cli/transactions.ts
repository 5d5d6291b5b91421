// `kafka-wire transactions list|describe|describe-producers|abort`: kafka-transactions.sh over
// the admin client: every transactional id and its state, one transaction in full, the producers
// writing to a partition now, and the abort of another producer's open (hung) transaction.
import { UsageError } from '../errors.js';
import type { Command, Io } from './command.js';
import { ADMIN_OPTIONS, jsonLine, perResource, table, withAdmin } from './admin-common.js';
import { integerArg, stringOption, type ParsedArgs } from './options.js';

export const transactions: Command = {
  name: 'transactions',
  summary: 'transactions as kafka-transactions.sh shows them: list, describe one, the producers of a partition, abort a hung one',
  synopsis: [
    'list -b HOST:PORT', 'describe -b HOST:PORT --transactional-id ID', 'describe-producers -b HOST:PORT --topic TOPIC --partition N',
    'abort -b HOST:PORT --topic TOPIC --partition N (--start-offset OFFSET | --producer-id ID --producer-epoch E --coordinator-epoch C)',
  ],
  options: [
    ...ADMIN_OPTIONS,
    { name: 'transactional-id', value: 'ID', help: 'describe: the transaction' },
    { name: 'topic', short: 't', value: 'TOPIC', help: 'describe-producers: the topic' },
    { name: 'partition', short: 'p', value: 'N', help: 'describe-producers, abort: the partition' },
    { name: 'start-offset', value: 'OFFSET', help: 'abort: the transaction that starts at this offset of the partition (its producer found by describe-producers)' },
    { name: 'producer-id', value: 'ID', help: 'abort: the producer id of the transaction (instead of --start-offset)' },
    { name: 'producer-epoch', value: 'E', help: 'abort: its producer epoch' },
    { name: 'coordinator-epoch', value: 'C', help: 'abort: its coordinator epoch (describe-producers\' LatestCoordinatorEpoch)' },
  ],
  run: async ({ options: values, positionals }: ParsedArgs, io: Io) => {
    const [action, ...rest] = positionals;
    if (action !== 'list' && action !== 'describe' && action !== 'describe-producers' && action !== 'abort') throw new UsageError('transactions needs list, describe, describe-producers or abort');
    if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
    const json = values.json === true;
    return withAdmin(values, async (admin) => {
      if (action === 'list') {
        const list = await admin.listTransactions();
        if (json) for (const t of list) io.stdout.write(jsonLine(t));
        else io.stdout.write(table(['TransactionalId', 'ProducerId', 'TransactionState'], list.map((t) => [t.transactionalId, String(t.producerId), t.state])));
        return 0;
      }
      if (action === 'describe') {
        const id = stringOption(values, 'transactional-id');
        if (id === undefined) throw new UsageError('transactions describe needs --transactional-id');
        return perResource(io, admin.describeTransactions([id]), (t) => {
          io.stdout.write(json ? jsonLine(t) : table(['CoordinatorId', 'TransactionalId', 'ProducerId', 'ProducerEpoch', 'TransactionState', 'TransactionTimeoutMs', 'CurrentTransactionStartTimeMs', 'TopicPartitions'],
            [[String(t.coordinator), t.transactionalId, String(t.producerId), String(t.producerEpoch), t.state, String(t.timeoutMs), String(t.startTimeMs),
              t.partitions.flatMap((tp) => tp.partitions.map((p) => `${tp.topic}-${p}`)).join(',')]]));
        });
      }
      const topic = stringOption(values, 'topic');
      const partition = integerArg(stringOption(values, 'partition'), '--partition', 0);
      if (topic === undefined || partition === undefined) throw new UsageError(`transactions ${action} needs --topic and --partition`);
      if (action === 'abort') {
        const start = stringOption(values, 'start-offset');
        const producer = ['producer-id', 'producer-epoch', 'coordinator-epoch'].map((n) => stringOption(values, n));
        if ((start === undefined) === producer.every((v) => v === undefined) || (start === undefined && producer.some((v) => v === undefined))) {
          throw new UsageError('transactions abort needs --start-offset, or all of --producer-id, --producer-epoch and --coordinator-epoch');
        }
        const int64 = (text: string, what: string) => {
          if (!/^\d+$/.test(text)) throw new UsageError(`${what} must be a whole number, not ${JSON.stringify(text)}`);
          return BigInt(text);
        };
        const spec = start !== undefined ? { topic, partition, startOffset: int64(start, '--start-offset') }
          : { topic, partition, producerId: int64(producer[0]!, '--producer-id'), producerEpoch: integerArg(producer[1], '--producer-epoch', 0, 32767)!, coordinatorEpoch: integerArg(producer[2], '--coordinator-epoch', 0)! };
        const t = await admin.abortTransaction(spec);
        io.stdout.write(json ? jsonLine({ ...t, aborted: true })
          : `Aborted the transaction of producer ${t.producerId} (epoch ${t.producerEpoch}, coordinator epoch ${t.coordinatorEpoch}) on ${t.topic}-${t.partition}.\n`);
        return 0;
      }
      return perResource(io, admin.describeProducers([{ topic, partition }]), (r) => {
        if (json) { io.stdout.write(jsonLine(r)); return; }
        io.stdout.write(table(['ProducerId', 'ProducerEpoch', 'LatestCoordinatorEpoch', 'LastSequence', 'LastTimestamp', 'CurrentTransactionStartOffset'],
          r.producers.map((p) => [String(p.producerId), String(p.producerEpoch), String(p.coordinatorEpoch), String(p.lastSequence), String(p.lastTimestamp), String(p.currentTxnStartOffset)])));
      });
    });
  },
};

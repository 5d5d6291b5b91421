// Must pass: serialisers and deserialisers type the producer's send() and the consumer's records
// through generics; without them keys and values stay bytes (or strings to send); the positions
// and jsonSafe() give the types they say.
import { Consumer, serdes, jsonSafe, type ConsumerRecord, type PartitionBatch, type PartitionOffset } from '../../../src/consumer/index.js';
import { createProducer, Producer } from '../../../src/producer/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
function same<A, B>(proof: Equal<A, B>): void {
  void proof;
}

interface Order { id: number; total: number }

declare const record: ConsumerRecord<Uint8Array, Order>;

export async function typed(): Promise<void> {
  // The producer: the serialisers' types are what send() takes.
  const producer = await createProducer({ bootstrap: 'localhost:9092', keySerializer: serdes.string, valueSerializer: serdes.json<Order>() });
  same<typeof producer, Producer<string, Order>>(true);
  await producer.send('orders', { key: 'o-1', value: { id: 1, total: 2 } });
  await producer.send('orders', [{ key: null, value: null }, { value: { id: 2, total: 0 }, headers: [{ key: 'h', value: 'v' }] }]);
  // A function is a serialiser too; its parameter gives the type.
  const counts = await createProducer({ bootstrap: 'localhost:9092', valueSerializer: (n: number) => Uint8Array.of(n) });
  await counts.send('counts', { value: 7 });
  // No serialisers: bytes or strings, as before.
  const plain = await createProducer({ bootstrap: 'localhost:9092' });
  await plain.send('raw', [{ key: 'k', value: new Uint8Array(1) }, { value: 'text' }]);

  // The consumer: records typed by the deserialisers.
  const consumer = new Consumer({ bootstrap: 'localhost:9092', groupId: 'g', topics: ['orders'], keyDeserializer: serdes.string, valueDeserializer: serdes.json<Order>() });
  same<typeof consumer, Consumer<string, Order>>(true);
  await consumer.run({
    eachRecord: (record, batch) => {
      same<typeof record, ConsumerRecord<string, Order>>(true);
      same<typeof record.value, Order | null>(true);
      same<typeof record.offset, bigint>(true);
      same<typeof batch, PartitionBatch<string, Order>>(true);
    },
  });
  await consumer.run({ eachBatch: (batch) => { same<ReturnType<typeof batch.consumerRecords>, ConsumerRecord<string, Order>[]>(true); } });
  await consumer.run((batch) => { void batch.records(); });
  for await (const batch of consumer) same<ReturnType<typeof batch.consumerRecords>[number]['key'], string | null>(true);
  // A custom deserialiser function.
  const numbers = new Consumer({ bootstrap: 'localhost:9092', assign: [{ topic: 'n' }], valueDeserializer: (b: Uint8Array) => b.length });
  await numbers.run({ eachRecord: (r) => { same<typeof r.value, number | null>(true); same<typeof r.key, Uint8Array | null>(true); } });
  // No deserialisers: bytes.
  const raw = new Consumer({ bootstrap: 'localhost:9092', assign: [{ topic: 'n' }] });
  same<typeof raw, Consumer<Uint8Array, Uint8Array>>(true);

  // Positions that say what they are.
  same<ReturnType<typeof consumer.fetchPositions>, (PartitionOffset & { highWatermark: bigint })[]>(true);
  same<ReturnType<typeof consumer.positions>, ReturnType<typeof consumer.fetchPositions>>(true);
  same<ReturnType<typeof consumer.processedPositions>, PartitionOffset[]>(true);
  same<ReturnType<typeof consumer.committed>, PartitionOffset[]>(true);
  same<ReturnType<typeof consumer.atEnd>, boolean>(true);

  // jsonSafe: int64 and bytes become strings, everything else stays.
  const safe = jsonSafe(record);
  same<typeof safe.offset, string>(true);
  same<typeof safe.timestamp, string>(true);
  same<typeof safe.key, string | null>(true);
  same<typeof safe.value, { id: number; total: number } | null>(true);
  JSON.stringify(safe);
}

// Must fail: values of the wrong type for the serialisers, records used as the wrong type,
// and a run() given both handlers (or none).
import { Consumer, serdes } from '../../../src/consumer/index.js';
import { createProducer } from '../../../src/producer/index.js';

interface Order { id: number; total: number }

export async function wrong(): Promise<void> {
  const producer = await createProducer({ bootstrap: 'localhost:9092', keySerializer: serdes.string, valueSerializer: serdes.json<Order>() });
  await producer.send('orders', { key: 'o-1', value: { id: 'one', total: 2 } }); // TS2322 Type 'string' is not assignable to type 'number'
  await producer.send('orders', { key: 42, value: null }); // TS2322 Type 'number' is not assignable to type 'string'
  const plain = await createProducer({ bootstrap: 'localhost:9092' });
  await plain.send('raw', { value: { id: 1 } }); // TS2353 'id' does not exist in type

  const consumer = new Consumer({ bootstrap: 'localhost:9092', groupId: 'g', topics: ['orders'], valueDeserializer: serdes.json<Order>() });
  await consumer.run({ eachRecord: (r) => { const n: number = r.value.id; void n; } }); // TS18047 'r.value' is possibly 'null'
  await consumer.run({ eachRecord: (r) => { const s: string = r.value!.total; void s; } }); // TS2322 Type 'number' is not assignable to type 'string'
  await consumer.run({ eachRecord: (r) => { const k: string | null = r.key; void k; } }); // TS2322 Type 'Uint8Array<ArrayBufferLike> | null' is not assignable to type 'string | null'
  await consumer.run({ eachRecord: () => {}, eachBatch: () => {} }); // TS2345 is not assignable
  await consumer.run({}); // TS2345 is not assignable
  const n: number = consumer.fetchPositions()[0]!.offset; // TS2322 Type 'bigint' is not assignable to type 'number'
  void n;
}

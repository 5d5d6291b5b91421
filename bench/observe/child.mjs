// One timed run of bench/observe.mjs in its own process: produce or consume N records through
// kafka-wire's library clients (DIST's build), with subscribers on every kafka-wire channel or
// with none. Prints one JSON line: { ms, records, events }.
//   node bench/observe/child.mjs produce|consume subscribed|none DIST BOOTSTRAP TOPIC N
import diagnostics from 'node:diagnostics_channel';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [task, subscribers, dist, bootstrap, topic, count] = process.argv.slice(2);
const N = Number(count);
const load = (p) => import(pathToFileURL(join(dist, p)).href);

let events = 0;
if (subscribers === 'subscribed') {
  // What a light APM does: a handler per event that looks at the context.
  const handler = (m) => { if (m !== undefined) events++; };
  for (const name of ['request', 'produce', 'fetch', 'group']) {
    diagnostics.tracingChannel(`kafka-wire:${name}`).subscribe({ start: handler, end: handler, asyncStart: handler, asyncEnd: handler, error: handler });
  }
}

if (task === 'produce') {
  const { Producer } = await load('src/producer/index.js');
  const producer = new Producer({ bootstrap, clientId: 'bench' });
  await producer.topic(topic);
  const value = JSON.stringify({ id: 0, user: 'user0', score: 700, active: true, tag: 'abcdefghijklmnopqrstuvwxyz', more: 'x'.repeat(40) });
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    if (!producer.write(topic, `key${i % 1000}`, value)) await producer.ready();
    if ((i & 4095) === 4095) await new Promise((r) => setImmediate(r));
  }
  await producer.flush();
  const ms = performance.now() - started;
  await producer.close();
  console.log(JSON.stringify({ ms, records: N, events }));
} else {
  const { Consumer } = await load('src/consumer/index.js');
  const consumer = new Consumer({ bootstrap, clientId: 'bench', assign: [{ topic }], resetPolicy: 'earliest' });
  const started = performance.now();
  let records = 0;
  let bytes = 0;
  for await (const batch of consumer) {
    for (const r of batch.records()) { records++; bytes += r.value?.length ?? 0; }
    if (records >= N) break;
  }
  const ms = performance.now() - started;
  await consumer.close();
  if (bytes === 0) throw new Error('nothing read');
  console.log(JSON.stringify({ ms, records, events }));
}

// One library reader of the consume-CPU benchmark, in its own process: reads N records of TOPIC
// from the beginning with kafka-wire's Consumer (assign mode, lazy batches) and touches every
// record's value, either through the lazy accessors (`columns`: valueSizeAt and one byte, no
// object per record; `released`: the same, each batch released once read, so the next answers
// are read into its memory) or as records (`records`: batch.records(), an object per record). Prints
// {records, cpuMs, wallMs}, timed from the first batch to the N-th record (start-up and the first
// Fetch's wait left out, so the figure is the iteration's own CPU per record).
//   node bench/consume-cpu/child.mjs columns|released|records N HOST:PORT TOPIC
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../lib/data.mjs';

const [mode, n, bootstrap, topic] = process.argv.slice(2);
const N = Number(n);
const root = process.env.KAFKA_WIRE_ROOT ?? ROOT;
const { Consumer } = await import(pathToFileURL(join(root, 'dist/src/consumer/index.js')).href);
const consumer = new Consumer({ bootstrap, assign: [{ topic }], resetPolicy: 'earliest', lazy: true });
let records = 0, checksum = 0, cpu0, wall0;
for await (const batch of consumer) {
  if (cpu0 === undefined) { cpu0 = process.cpuUsage(); wall0 = performance.now(); }
  if (mode === 'columns' || mode === 'released') {
    const first = Number(batch.firstOffset);
    for (const b of batch.batches) {
      const base = b.baseOffsetNumber, data = b.data;
      for (let i = 0, c = b.recordCount; i < c; i++) {
        if (base + b.offsetDeltaAt(i) < first) continue;
        const size = b.valueSizeAt(i);
        checksum += size > 0 ? size + data[b.valueOffsetAt(i)] : 0;
        records++;
      }
    }
  } else {
    for (const r of batch.records()) { checksum += r.value === null ? 0 : r.value.length + r.value[0]; records++; }
  }
  if (mode === 'released') batch.release();
  if (records >= N) break;
}
const cpu = process.cpuUsage(cpu0);
const wallMs = performance.now() - wall0;
await consumer.close();
process.stdout.write(JSON.stringify({ records, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, checksum }) + '\n');

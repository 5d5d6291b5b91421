// A memory broker that forgets what it stores (every 500 ms it drops the stored batches, keeping
// the offsets), for runs far larger than memory: perf's 100,000,000-record memory check.
// Prints its bootstrap address on stdout, runs until killed.
import { startMemoryBroker } from '../../dist/src/wire/index.js';

const topic = process.argv[2] ?? 'sink';
const partitions = Number(process.argv[3] ?? 4);
const broker = await startMemoryBroker({ topics: { [topic]: partitions } });
setInterval(() => {
  for (const t of broker.topics.values()) for (const p of t.partitions) p.batches.length = 0;
}, 500);
console.log(broker.bootstrap);

// The kafkajs API benchmark: one app (app.mjs) run with kafkajs 2.2.4 and with kafka-wire/kafkajs
// against the same real Kafka 4.4 (kafka/cluster.mjs, one broker), and the same workloads on
// @platformatic/kafka's and kafka-wire's own APIs (own.mjs). Rows: send of one message per call,
// sendBatch of 1,000, consume with eachMessage and with eachBatch, 100-byte and 1 KB values. Each
// round runs every contender of a row once, in a rotating order, each in a fresh process, so
// round i is a set measured in the same stretch of a shared machine; a row reports the median
// time per unit over rounds with its quartiles, and each contender's ratio to kafkajs as the
// median (and quartiles) of the per-round ratios, and kafka-wire/kafkajs's to each contender. The
// load average is taken after every round. Sends are timed after a warm-up, consuming from the
// group join (app.mjs says why). Each row ends with its floor on this machine, measured in the
// same rounds: the broker's round trip for the Produce (rtt.mjs) or the same records as raw Fetch
// answers (fetch-floor.mjs); no client can beat it, so a speed-up over kafkajs larger than the
// floor's cannot be had.
//   npm run build && node bench/kafkajs-api/run.mjs [--rounds 5] [--quick] [--only send1,batch1000,eachMessage,eachBatch]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as cluster from '../../kafka/cluster.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const rounds = Number(args[args.indexOf('--rounds') + 1] ?? 0) || (quick ? 2 : 5);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;

const CONTENDERS = [
  { id: 'kafkajs', script: 'app.mjs', arg: 'kafkajs' },
  { id: 'kafka-wire/kafkajs', script: 'app.mjs', arg: 'kafka-wire' },
  { id: '@platformatic/kafka (own API)', script: 'own.mjs', arg: 'platformatic' },
  { id: 'kafka-wire (own API)', script: 'own.mjs', arg: 'kafka-wire-own' },
];
const scale = quick ? 0.2 : 1;
const WORKLOADS = [
  { id: 'send1', label: 'send, one message per call', unit: 'send', count: Math.round(2000 * scale), per: 1 },
  { id: 'batch1000', label: 'sendBatch of 1,000', unit: '1,000 messages', count: Math.round(100_000 * scale), per: 1000 },
  { id: 'eachMessage', label: 'consume, eachMessage', unit: '1,000 messages', count: Math.round(100_000 * scale), per: 1000 },
  { id: 'eachBatch', label: 'consume, eachBatch', unit: '1,000 messages', count: Math.round(100_000 * scale), per: 1000 },
];
const SIZES = [100, 1024];

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i));
};
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

const kafka = await cluster.startKafka({});
console.error(`Kafka ${kafka.version} at ${kafka.bootstrap}, ${rounds} rounds`);
const rows = [];
/** The 1-minute load average after each round of each row. */
const loads = [];
try {
  // The consumed topics, written once by kafka-wire's producer (4 partitions, the rows' counts).
  const { createProducer } = await import(here('../../dist/src/producer/index.js'));
  for (const size of SIZES) {
    const topic = `consume-${size}`;
    await kafka.createTopic(topic, { partitions: 4 });
    const p = await createProducer({ bootstrap: kafka.bootstrap });
    const value = Buffer.alloc(size, 'x');
    const n = WORKLOADS.find((w) => w.id === 'eachMessage').count;
    for (let i = 0; i < n; i += 10_000) await p.send(topic, Array.from({ length: Math.min(10_000, n - i) }, (_, j) => ({ key: `k${i + j}`, value })));
    await p.close();
  }
  for (const w of WORKLOADS.filter((x) => only === null || only.includes(x.id))) {
    for (const size of SIZES) {
      const topic = w.id.startsWith('each') ? `consume-${size}` : `${w.id}-${size}`;
      if (!w.id.startsWith('each')) await kafka.createTopic(topic, { partitions: 4 });
      const times = new Map(CONTENDERS.map((c) => [c.id, []]));
      const floors = [];
      for (let round = 0; round < rounds; round++) {
        const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]);
        for (const c of order) {
          const out = execFileSync(process.execPath, [here(c.script), c.arg, w.id, String(size), kafka.bootstrap, topic, String(w.count)], { encoding: 'utf8', timeout: 600_000 });
          const { ms, count } = JSON.parse(out.trim().split('\n').pop());
          times.get(c.id).push((ms / count) * w.per);
        }
        if (w.id === 'send1' || w.id === 'batch1000') {
          // The floor of the row: the broker's round trip for the Produce it needs, on one
          // kafka-wire connection with nothing else in flight (rtt.mjs), in the same round.
          const out = execFileSync(process.execPath, [here('rtt.mjs'), kafka.bootstrap, topic, '500', String(size), '--json'], { encoding: 'utf8', timeout: 600_000 });
          const m = JSON.parse(out.trim().split('\n').pop());
          floors.push(w.id === 'send1' ? m['Produce acks=-1'] : Object.values(m).at(-1));
        } else {
          // The floor of a consume row: the same records as raw Fetch answers, nothing decoded (fetch-floor.mjs), in the same round.
          const out = execFileSync(process.execPath, [here('fetch-floor.mjs'), kafka.bootstrap, topic, String(w.count), '3', '--json'], { encoding: 'utf8', timeout: 600_000 });
          const { ms, count } = JSON.parse(out.trim().split('\n').pop());
          floors.push((ms / count) * w.per);
        }
        loads.push(loadavg()[0]);
      }
      const base = times.get('kafkajs');
      const ours = times.get('kafka-wire/kafkajs');
      const versus = (other) => { const r = other.map((x, i) => x / ours[i]); return [quantile(r, 0.5), quantile(r, 0.25), quantile(r, 0.75)]; };
      for (const c of CONTENDERS) {
        const t = times.get(c.id);
        const ratios = t.map((x, i) => base[i] / x);
        rows.push({ workload: w.label, size, unit: w.unit, contender: c.id, median: quantile(t, 0.5), q1: quantile(t, 0.25), q3: quantile(t, 0.75), ratio: quantile(ratios, 0.5), r1: quantile(ratios, 0.25), r3: quantile(ratios, 0.75),
          // kafka-wire/kafkajs's speed-up over this contender (its time / kafka-wire/kafkajs's), per round.
          ours: c.id === 'kafka-wire/kafkajs' ? null : versus(t), load: loads.slice(-rounds) });
        const r = rows.at(-1);
        console.error(`${w.label} ${size} B ${c.id}: ${fmt(r.median)} ms/${w.unit} [${fmt(r.q1)}, ${fmt(r.q3)}], ${fmt(r.ratio)}x kafkajs${r.ours ? `; kafka-wire/kafkajs ${fmt(r.ours[0])}x this` : ''}`);
      }
      if (floors.length > 0) {
        const ratios = floors.map((x, i) => base[i] / x);
        rows.push({ workload: w.label, size, unit: w.unit, contender: w.id.startsWith('each') ? 'floor: the records as raw Fetch answers, kafkajs\'s sizes, nothing decoded, fetch-floor.mjs'
          : `floor: one Produce round trip (acks -1${w.id === 'batch1000' ? ', the 1,000 records' : ''}; mean), rtt.mjs`,
          median: quantile(floors, 0.5), q1: quantile(floors, 0.25), q3: quantile(floors, 0.75), ratio: quantile(ratios, 0.5), r1: quantile(ratios, 0.25), r3: quantile(ratios, 0.75), ours: null });
        console.error(`${w.label} ${size} B floor: ${fmt(rows.at(-1).median)} ms`);
      }
    }
  }
} finally {
  await kafka.stop();
}
const lines = [
  `# kafkajs API benchmark`, '',
  `${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; Kafka ${kafka.version}, one broker on 127.0.0.1; ${rounds} rounds; \`node bench/kafkajs-api/run.mjs${quick ? ' --quick' : ''}${only ? ` --only ${only.join(',')}` : ''}\`.`,
  'Time per unit: median over rounds [quartiles]; speed-up: kafkajs\'s time / the row\'s, median of the per-round ratios [quartiles]; kafka-wire/kafkajs vs this: this row\'s time / kafka-wire/kafkajs\'s, per round (above 1: kafka-wire/kafkajs is faster).',
  `Load average (1 min) after the rounds: median ${fmt(quantile(loads, 0.5))} [${fmt(quantile(loads, 0.25))}, ${fmt(quantile(loads, 0.75))}], max ${fmt(Math.max(...loads))}.`, '',
  '| workload | value | contender | ms per unit | speed-up vs kafkajs | kafka-wire/kafkajs vs this |', '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.workload} (per ${r.unit}) | ${r.size} B | ${r.contender} | ${fmt(r.median)} [${fmt(r.q1)}, ${fmt(r.q3)}] | ${fmt(r.ratio)}x [${fmt(r.r1)}, ${fmt(r.r3)}] | ${r.ours ? `${fmt(r.ours[0])}x [${fmt(r.ours[1])}, ${fmt(r.ours[2])}]` : ''} |`),
];
// A run of some rows (--only) leaves the full table alone.
writeFileSync(here(`results${quick ? '-quick' : ''}${only ? `-${only.join('-')}` : ''}.md`), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));

// Bench row for `kafka-wire pcap`: MB/s of capture file turned into JSON lines (no --records).
// A synthetic capture of produce/consume traffic (Produce v9 requests and Fetch v12 responses
// carrying 16 KiB record batches, Metadata and ApiVersions between them, TCP segments of loopback
// size) is read in memory by the same code the command runs (reader, one JSON line per frame
// written by JsonWriter), and separately by the command itself writing to /dev/null. Runs
// alternate; the result is the median with quartiles. With --baseline, another build's CLI
// (say one made from an older commit) runs in the same interleaved pairs, and the speed-up is
// taken from each pair's own ratio, so the machine's drifting load cancels. Each command run's CPU
// time (user + system, by /usr/bin/time) gives MB per CPU second too: what one idle core would
// do, a figure a loaded machine moves far less than wall-clock rates.
//
//   node bench/capture.mjs [--mb 128] [--runs 9] [--save FILE] [--baseline OTHER/dist/cjs/cli/main.cjs]
//   (after `npm run build`)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encodeRequest, encodeResponse, newMessage } from '../dist/src/index.js';
import { encodeRecordBatch } from '../dist/src/records/index.js';
import { CaptureFileWriter, JsonWriter, TcpConversation, encodePacket, readCapture, writeCaptureFrameLine } from '../dist/src/capture/index.js';
import { prng } from './lib/prng.mjs';
import { binOf, ROOT } from './lib/data.mjs';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '128' }, runs: { type: 'string', default: '9' }, save: { type: 'string' }, baseline: { type: 'string' } } });
const targetBytes = Number(values.mb) * 1024 * 1024;
const runs = Number(values.runs);

function captureBytes() {
  const random = prng(17);
  const value = () => Uint8Array.from({ length: 512 }, () => 32 + Math.floor(random() * 90));
  const batch = encodeRecordBatch({ baseOffset: 0n, baseTimestamp: 1_700_000_000_000n, records: Array.from({ length: 32 }, () => ({ key: null, value: value() })) });
  const header = (apiKey, apiVersion, correlationId) => ({ requestApiKey: apiKey, requestApiVersion: apiVersion, correlationId, clientId: 'bench' });
  const conversation = new TcpConversation({ ip: '127.0.0.1', port: 50000 }, { ip: '127.0.0.1', port: 9092 });
  const writer = new CaptureFileWriter();
  const parts = [writer.header()];
  let size = parts[0].length;
  let time = 1_700_000_000_000_000_000n;
  const add = (segments) => {
    for (const s of segments) {
      const record = writer.record({ timeNs: s.timeNs, data: encodePacket(writer.linkType, s) });
      parts.push(record);
      size += record.length;
    }
  };
  add(conversation.open(time));
  for (let correlationId = 1; size < targetBytes; correlationId++) {
    time += 100_000n;
    let request;
    let response;
    switch (correlationId % 8) {
      case 0:
        request = encodeRequest(header(3, 12, correlationId), newMessage(3, 'request', 12, { topics: [{ name: 'orders', topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }] }));
        response = encodeResponse(3, 12, { correlationId }, newMessage(3, 'response', 12, { brokers: [{ nodeId: 1, host: 'broker-1', port: 9092, rack: null }], topics: [] }));
        break;
      case 1: case 2: case 3:
        request = encodeRequest(header(0, 9, correlationId), newMessage(0, 'request', 9, { acks: -1, timeoutMs: 1000, topicData: [{ name: 'orders', partitionData: [{ index: 0, records: batch }] }] }));
        response = encodeResponse(0, 9, { correlationId }, newMessage(0, 'response', 9, { responses: [{ name: 'orders', partitionResponses: [{ index: 0 }] }] }));
        break;
      default:
        request = encodeRequest(header(1, 12, correlationId), newMessage(1, 'request', 12, { maxWaitMs: 500, topics: [{ topic: 'orders', partitions: [{ partition: 0, fetchOffset: 0n }] }] }));
        response = encodeResponse(1, 12, { correlationId }, newMessage(1, 'response', 12, { responses: [{ topic: 'orders', partitions: [{ partitionIndex: 0, highWatermark: 100n, records: batch }] }] }));
    }
    add(conversation.send(true, request, time));
    add(conversation.send(false, response, time + 50_000n));
  }
  add(conversation.close(time));
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The command's work in memory: every frame to its JSON line, in chunks of the command's size. */
function inMemory(bytes) {
  const lines = new JsonWriter(1 << 20);
  let written = 0;
  for (const event of readCapture(bytes)) {
    if (event.type !== 'frame') continue;
    writeCaptureFrameLine(lines, event);
    if (lines.length >= 1 << 20) {
      const chunk = lines.take();
      written += chunk.length;
      lines.release(chunk);
    }
  }
  return written + lines.length;
}

function quartiles(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
  return { q1: at(0.25), median: at(0.5), q3: at(0.75) };
}

const bytes = captureBytes();
if (values.save !== undefined) writeFileSync(values.save, bytes); // for profiling: node --cpu-prof on the command
const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-bench-capture-'));
const file = join(dir, 'bench.pcap');
writeFileSync(file, bytes);
const mb = bytes.length / 1e6;
const memory = [];
const command = [];
const baseline = [];
const cpu = { command: [], baseline: [] };
const times = join(dir, 'times');
/** MB/s of one run of a CLI's pcap command over the file, output to /dev/null; its MB per CPU second into `cpuRates`. */
const commandRun = (main, cpuRates) => {
  const start = process.hrtime.bigint();
  execFileSync('/usr/bin/time', ['-f', '%U %S', '-o', times, process.execPath, main, 'pcap', file], { stdio: ['ignore', 'ignore', 'ignore'] });
  const rate = mb / (Number(process.hrtime.bigint() - start) / 1e9);
  const [user, system] = readFileSync(times, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  cpuRates.push(mb / (user + system));
  return rate;
};
const loadBefore = loadavg();
try {
  inMemory(bytes); // warm-up
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    inMemory(bytes);
    memory.push(mb / (Number(process.hrtime.bigint() - start) / 1e9));
    // Which build goes first alternates, so neither always runs on the warmer machine.
    if (values.baseline !== undefined && i % 2 === 0) baseline.push(commandRun(values.baseline, cpu.baseline));
    command.push(commandRun(binOf(ROOT), cpu.command));
    if (values.baseline !== undefined && i % 2 === 1) baseline.push(commandRun(values.baseline, cpu.baseline));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const loadAfter = loadavg();
const row = (name, xs) => {
  const { q1, median, q3 } = quartiles(xs);
  return `${name.padEnd(42)} ${median.toFixed(0).padStart(5)} MB/s  (q1 ${q1.toFixed(0)}, q3 ${q3.toFixed(0)}; ${xs.length} runs)`;
};
/** The goal: MB of capture file a second, JSON output without --records. */
const GOAL_MBPS = 100;
console.log(`capture: ${mb.toFixed(1)} MB, goal >= ${GOAL_MBPS} MB/s of capture file for JSON output without --records`);
console.log(row('pcap → JSON lines, in memory', memory));
console.log(row('kafka-wire pcap FILE > /dev/null (process)', command));
console.log(row('  the same, MB per CPU second', cpu.command));
if (values.baseline !== undefined) {
  console.log(row('the same, baseline build', baseline));
  console.log(row('  the same, MB per CPU second', cpu.baseline));
  for (const [name, ours, theirs] of [['speed-up over the baseline (per pair)', command, baseline], ['  in CPU time', cpu.command, cpu.baseline]]) {
    const { q1, median, q3 } = quartiles(ours.map((x, i) => x / theirs[i]));
    console.log(`${name.padEnd(42)} ${median.toFixed(2).padStart(5)}x     (q1 ${q1.toFixed(2)}, q3 ${q3.toFixed(2)})`);
  }
}
for (const [what, xs] of [['kafka-wire pcap, wall clock', command], ['kafka-wire pcap, MB per CPU second', cpu.command]]) {
  const { median } = quartiles(xs);
  console.log(`goal: >= ${GOAL_MBPS} MB/s (${what}): ${median.toFixed(0)} MB/s: ${median >= GOAL_MBPS ? 'held' : 'NOT HELD'}`);
}
console.log(`load average (1, 5, 15 min): before ${loadBefore.map((x) => x.toFixed(1)).join(', ')}; after ${loadAfter.map((x) => x.toFixed(1)).join(', ')}`);

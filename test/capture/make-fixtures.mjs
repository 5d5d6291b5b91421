// Remakes the real captures in test/capture/fixtures (run as root after `npm run build`):
// tcpdump on lo while kcat produces to and consumes from the memory broker, and while kafkajs
// does the same. Only the broker's port is captured; every process started here is stopped.
import { spawn, execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startMemoryBroker } from '../../dist/src/wire/index.js';

/** kcat, without blocking this process (the broker runs in it). */
function kcat(args, input = '') {
  return new Promise((resolve, reject) => {
    const child = execFile('kcat', args, { timeout: 30_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    child.stdin.end(input);
  });
}

const out = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

const mockCluster = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mock-cluster', 'build', 'mock-cluster');

/** librdkafka's mock cluster (built by the tests' mock-cluster helper) with one broker and topic t. */
async function startMockCluster() {
  const child = spawn(mockCluster, ['-b', '1', '-t', 't:1'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const line = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  return {
    bootstrap: line,
    port: Number(line.slice(line.lastIndexOf(':') + 1)),
    close: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }),
  };
}

async function capture(name, snaplen, work, start = () => startMemoryBroker({ host: '127.0.0.1', port: 0, topics: { t: 1 } })) {
  const broker = await start();
  const file = join(out, name);
  const dump = spawn('tcpdump', ['-i', 'lo', '--immediate-mode', '-U', '-Z', 'root', '-s', String(snaplen), '-w', file, `tcp port ${broker.port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((resolve) => dump.stderr.once('data', resolve)); // "listening on lo"
  await sleep(1000);
  try {
    await work(broker.bootstrap);
  } finally {
    await sleep(300);
    dump.kill('SIGINT');
    await new Promise((resolve) => dump.once('exit', resolve));
    await broker.close();
  }
}

await capture('kcat-memory-broker.pcap', 262144, async (bootstrap) => {
  // Values long enough that librdkafka keeps the compressed batch (it sends small ones plain).
  await kcat(['-b', bootstrap, '-P', '-t', 't', '-X', 'compression.codec=zstd'], ['one', 'two', 'three'].map((w) => `${w} `.repeat(40)).join('\n') + '\n');
  await kcat(['-b', bootstrap, '-C', '-t', 't', '-o', 'beginning', '-e', '-q']);
  await kcat(['-b', bootstrap, '-L']);
});

await capture('kcat-mock-cluster.pcap', 262144, async (bootstrap) => {
  await kcat(['-b', bootstrap, '-P', '-t', 't', '-X', 'compression.codec=lz4', '-k', 'key'], ['alpha', 'beta'].map((w) => `${w} `.repeat(40)).join('\n') + '\n');
  await kcat(['-b', bootstrap, '-C', '-t', 't', '-o', 'beginning', '-e', '-q']);
}, startMockCluster);

await capture('kafkajs-memory-broker.pcap', 262144, async (bootstrap) => {
  const { Kafka, logLevel } = await import('kafkajs');
  const kafka = new Kafka({ brokers: [bootstrap], clientId: 'fixture', logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: 't', messages: [{ key: 'k', value: 'hello' }, { value: 'world' }] });
  await producer.disconnect();
});

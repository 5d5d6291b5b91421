#!/usr/bin/env node
// Real Apache Kafka on demand, for tests, benchmarks and people: KRaft nodes (each a combined
// broker and controller) started from the release jars that Maven resolves from kafka/pom.xml,
// on 127.0.0.1 with free ports, in a temporary directory that is removed when they stop.
//
//   npm run kafka [-- --nodes 3 --sasl --ssl]   prints the bootstrap address, runs until Ctrl-C
//
//   import { startKafka } from '../kafka/cluster.mjs';
//   const kafka = await startKafka({ nodes: 3 });
//   ... kafka.bootstrap ...
//   await kafka.stop();
//
// Readiness and topic creation go through kafka-wire's own client (dist/, so build first): a
// cluster is ready when every node is in Metadata. The JVMs are stopped by their PIDs, and killed
// when the Node process that started them exits.

import { spawn, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const kafkaDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(kafkaDir, '..');
const pom = join(kafkaDir, 'pom.xml');
/** Where the resolved classpath and compiled Java programs go (git-ignored). */
const buildDir = join(repoRoot, 'build', 'kafka');

/** The Kafka release the POM names: the one started, and the one the Java programs build against. */
export const KAFKA_VERSION = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(pom, 'utf8'))[1];

function run(file, args, options = {}) {
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 64 << 20, timeout: options.timeoutMs ?? 600_000, cwd: options.cwd }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 127) : 0, stdout, stderr, error: err });
    });
  });
}

async function onPath(cmd) {
  return (await run('sh', ['-c', `command -v ${cmd}`])).code === 0;
}

// ---------------------------------------------------------------------------------------------
// Maven: the classpath and the Java programs, built once per change of the POM or the sources

let classpathPromise;

/** The broker's, clients' and tools' classpath, with kafka-wire's compiled Java programs first. */
export function kafkaClasspath() {
  classpathPromise ??= resolveClasspath();
  return classpathPromise;
}

/** The newest modification time of any file under `dir` (0 when it is absent). */
function newestSource(dir) {
  let newest = 0;
  if (!existsSync(dir)) return 0;
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else newest = Math.max(newest, s.mtimeMs);
    }
  };
  walk(dir);
  return newest;
}

async function resolveClasspath() {
  mkdirSync(buildDir, { recursive: true });
  const cpFile = join(buildDir, `classpath-${KAFKA_VERSION}.txt`);
  const classes = join(kafkaDir, 'target', 'classes');
  const sources = join(kafkaDir, 'src', 'main', 'java');
  const pomTime = statSync(pom).mtimeMs;
  if (!existsSync(cpFile) || statSync(cpFile).mtimeMs < pomTime) {
    const r = await run('mvn', ['-q', '-B', '-f', pom, 'dependency:build-classpath', `-Dmdep.outputFile=${cpFile}`]);
    if (r.code !== 0) throw new Error(`Maven could not resolve Kafka ${KAFKA_VERSION}:\n${r.stdout}${r.stderr}`);
  }
  const sourceTime = Math.max(newestSource(sources), pomTime);
  const stamp = join(buildDir, 'classes.stamp');
  if (existsSync(sources) && (!existsSync(stamp) || statSync(stamp).mtimeMs < sourceTime)) {
    const r = await run('mvn', ['-q', '-B', '-f', pom, 'compile']);
    if (r.code !== 0) throw new Error(`Maven could not compile kafka/src/main/java:\n${r.stdout}${r.stderr}`);
    writeFileSync(stamp, '');
  }
  const deps = readFileSync(cpFile, 'utf8').trim();
  return existsSync(classes) ? `${classes}:${deps}` : deps;
}

/**
 * Null when real Kafka can run here (Java, Maven, the artifacts resolvable), else why not: what a
 * test prints when it skips, or fails with in CI.
 */
export async function kafkaAvailable() {
  if (!(await onPath('java'))) return 'Java is not on PATH (Debian: apt-get install openjdk-17-jre-headless)';
  if (!(await onPath('mvn'))) return 'Maven is not on PATH (Debian: apt-get install maven)';
  if (!existsSync(join(repoRoot, 'dist', 'src', 'wire', 'index.js'))) return 'dist/ is missing: run npm run build';
  try {
    await kafkaClasspath();
  } catch (err) {
    classpathPromise = undefined;
    return err.message;
  }
  return null;
}

/**
 * Runs a Java main class on Kafka's classpath (Kafka's tools, the perf tools, kafka-wire's Java
 * programs). Resolves with its exit code and output; rejects only if it cannot start.
 */
export async function kafkaJava(mainClass, args = [], options = {}) {
  const cp = await kafkaClasspath();
  const jvm = options.jvmArgs ?? ['-Xmx512m'];
  return new Promise((resolve, reject) => {
    const child = spawn('java', [...jvm, '-cp', cp, mainClass, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes: Buffer.concat(out) });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

// ---------------------------------------------------------------------------------------------
// Ports, configuration, certificates

/** Refuses a port something already listens on (Kafka would only say so in its log). */
function portIsFree(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err) => reject(new Error(`kafka: port ${port} on 127.0.0.1 is not free (${err.code ?? err.message})`)));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(port)));
  });
}

/**
 * Where a node's ports come from: below the ephemeral range the kernel hands client sockets
 * (Linux's ip_local_port_range, 32768-60999 by default; macOS's starts at 49152). A port from
 * that range (port 0) could be taken as some client's source port while its node is stopped,
 * and the node could not listen on it again when restarted ("Address already in use").
 */
const PORT_RANGE = (() => {
  let low = 32768;
  try { low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low; } catch { /* not Linux */ }
  return low > 11000 ? { from: 10000, to: Math.min(low, 32768) - 1 } : null;
})();

async function freePort() {
  for (let attempt = 0; PORT_RANGE !== null && attempt < 50; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from + 1));
    if (await portIsFree(port).then(() => true, () => false)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A .properties file: Java reads it as ISO-8859-1, so anything else is written as \uXXXX. */
function properties(map) {
  const escape = (text) => String(text).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return Object.entries(map).map(([k, v]) => `${k}=${escape(v)}`).join('\n') + '\n';
}

const SCRAM_MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512'];

/** A self-signed certificate for 127.0.0.1 and localhost, made with keytool, in PKCS12 and PEM. */
async function makeCertificate(dir) {
  const password = 'kafka-wire';
  const keystore = join(dir, 'broker.p12');
  const truststore = join(dir, 'truststore.p12');
  const caPemFile = join(dir, 'broker.pem');
  const steps = [
    ['-genkeypair', '-alias', 'broker', '-keyalg', 'RSA', '-keysize', '2048', '-validity', '3',
      '-dname', 'CN=localhost', '-ext', 'SAN=IP:127.0.0.1,DNS:localhost',
      '-keystore', keystore, '-storetype', 'PKCS12', '-storepass', password, '-keypass', password],
    ['-exportcert', '-rfc', '-alias', 'broker', '-keystore', keystore, '-storepass', password, '-file', caPemFile],
    ['-importcert', '-noprompt', '-alias', 'broker', '-file', caPemFile, '-keystore', truststore,
      '-storetype', 'PKCS12', '-storepass', password],
  ];
  for (const args of steps) {
    const r = await run('keytool', args);
    if (r.code !== 0) throw new Error(`keytool ${args[0]} failed:\n${r.stdout}${r.stderr}`);
  }
  return { keystore, truststore, password, caPem: readFileSync(caPemFile, 'utf8'), caPemFile };
}

// ---------------------------------------------------------------------------------------------
// Nodes

const started = new Set();
process.once('exit', () => {
  for (const child of started) {
    try { process.kill(child.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
});

/**
 * Starts `nodes` KRaft nodes (each broker + controller) and waits until every one is in Metadata.
 *
 * options:
 *   nodes      1 (default) or more
 *   sasl       { users: { name: password }, oauthbearer?: true }: a SASL_PLAINTEXT listener with
 *              PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 (SCRAM credentials written by Kafka's storage
 *              tool at format), and OAUTHBEARER with `oauthbearer` (Kafka's unsecured validator
 *              unless `config` names another listener.name.sasl_plaintext.oauthbearer.* handler)
 *   jvmArgs    more JVM arguments for the brokers (system properties such as
 *              -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=...)
 *   ssl        true: an SSL listener with a certificate made here (kafka.ssl has it)
 *   config     broker settings laid over the defaults (strings)
 *   heap       the JVM's -Xmx (default '768m')
 *   port       the first node's PLAINTEXT port (default: a free one), e.g. 9092 for examples that assume it
 *   racks      each node's broker.rack, in node order (['a', 'a', 'b']); default none
 */
export async function startKafka(options = {}) {
  const count = options.nodes ?? 1;
  const cp = await kafkaClasspath();
  const dir = mkdtempSync(join(tmpdir(), 'kafka-wire-kafka-'));
  // A cluster id starting with '-' would read as an option to the storage tool (Kafka's own never do).
  let clusterId;
  do clusterId = randomBytes(16).toString('base64url'); while (clusterId.startsWith('-'));
  const ssl = options.ssl ? await makeCertificate(dir) : undefined;
  const users = options.sasl?.users ?? {};

  const nodes = [];
  for (let i = 0; i < count; i++) {
    const ports = { PLAINTEXT: i === 0 && options.port !== undefined ? await portIsFree(options.port) : await freePort(), CONTROLLER: await freePort() };
    if (options.sasl) ports.SASL_PLAINTEXT = await freePort();
    if (ssl) ports.SSL = await freePort();
    nodes.push({ nodeId: i + 1, ports, dir: join(dir, `node-${i + 1}`), log: join(dir, `node-${i + 1}.log`), child: undefined });
  }
  const voters = nodes.map((n) => `${n.nodeId}@127.0.0.1:${n.ports.CONTROLLER}`).join(',');
  const replication = String(Math.min(3, count));

  for (const node of nodes) {
    mkdirSync(node.dir, { recursive: true });
    const names = Object.keys(node.ports);
    const config = {
      'process.roles': 'broker,controller',
      'node.id': node.nodeId,
      'controller.quorum.voters': voters,
      'controller.listener.names': 'CONTROLLER',
      'inter.broker.listener.name': 'PLAINTEXT',
      'listeners': names.map((l) => `${l}://127.0.0.1:${node.ports[l]}`).join(','),
      'advertised.listeners': names.filter((l) => l !== 'CONTROLLER').map((l) => `${l}://127.0.0.1:${node.ports[l]}`).join(','),
      'listener.security.protocol.map': names.map((l) => `${l}:${l === 'CONTROLLER' ? 'PLAINTEXT' : l}`).join(','),
      'log.dirs': join(node.dir, 'data'),
      'num.partitions': '1',
      'offsets.topic.replication.factor': replication,
      'offsets.topic.num.partitions': '8',
      'transaction.state.log.replication.factor': replication,
      'transaction.state.log.min.isr': '1',
      'transaction.state.log.num.partitions': '8',
      'share.coordinator.state.topic.replication.factor': replication,
      'share.coordinator.state.topic.min.isr': '1',
      'group.initial.rebalance.delay.ms': '0',
      // Small, quick to start and to stop: tests and benchmarks, not production.
      'log.segment.bytes': String(256 << 20),
      // Tests write records stamped years back, which Kafka's 7-day retention deletes at its next
      // check (30 s after start, then every 5 minutes) under a test reading them back. Delaying
      // the checks by a day keeps the records, and the retention configs at the defaults that
      // tests describe.
      'log.initial.task.delay.ms': String(24 * 3600_000),
      'log.retention.check.interval.ms': String(24 * 3600_000),
      'controlled.shutdown.enable': 'true',
      'auto.create.topics.enable': 'true',
    };
    if (options.sasl) {
      const plainUsers = Object.entries(users).map(([u, p]) => `user_${u}="${p}"`).join(' ');
      Object.assign(config, {
        'sasl.enabled.mechanisms': ['PLAIN', ...SCRAM_MECHANISMS, ...(options.sasl.oauthbearer ? ['OAUTHBEARER'] : [])].join(','),
        ...(options.sasl.oauthbearer ? {
          'listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config':
            'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;',
        } : {}),
        'listener.name.sasl_plaintext.plain.sasl.jaas.config':
          `org.apache.kafka.common.security.plain.PlainLoginModule required ${plainUsers};`,
        ...Object.fromEntries(SCRAM_MECHANISMS.map((m) => [
          `listener.name.sasl_plaintext.${m.toLowerCase()}.sasl.jaas.config`,
          'org.apache.kafka.common.security.scram.ScramLoginModule required;',
        ])),
      });
    }
    if (ssl) {
      Object.assign(config, {
        'ssl.keystore.location': ssl.keystore, 'ssl.keystore.type': 'PKCS12',
        'ssl.keystore.password': ssl.password, 'ssl.key.password': ssl.password,
      });
    }
    if (options.racks?.[node.nodeId - 1] !== undefined) config['broker.rack'] = options.racks[node.nodeId - 1];
    Object.assign(config, options.config ?? {});
    node.properties = join(node.dir, 'server.properties');
    writeFileSync(node.properties, properties(config));
  }

  // Format every node's storage with Kafka's own tool (SCRAM users too), all at once.
  const scram = Object.entries(users).flatMap(([u, p]) =>
    SCRAM_MECHANISMS.flatMap((m) => ['--add-scram', `${m}=[name=${u},password=${p}]`]));
  const formats = await Promise.all(nodes.map((node) => run('java', ['-Xmx256m', '-cp', cp, 'kafka.tools.StorageTool', 'format',
    '-t', clusterId, '-c', node.properties, '--ignore-formatted', ...scram])));
  formats.forEach((r, i) => {
    if (r.code !== 0) throw new Error(`formatting node ${nodes[i].nodeId} failed:\n${r.stdout}${r.stderr}`);
  });

  const heap = options.heap ?? '768m';
  const startNodeProcess = (node) => {
    const fd = openSync(node.log, 'a');
    const child = spawn('java', [`-Xmx${heap}`, `-Xms${heap}`, '-XX:+UseG1GC', '-Djava.awt.headless=true', ...(options.jvmArgs ?? []),
      '-Dorg.slf4j.simpleLogger.showDateTime=true', '-cp', cp, 'kafka.Kafka', node.properties],
    { stdio: ['ignore', fd, fd] });
    closeSync(fd);
    node.child = child;
    started.add(child);
    child.once('exit', () => started.delete(child));
  };
  const t0 = Date.now();
  nodes.forEach(startNodeProcess);

  const listener = (name) => nodes.filter((n) => n.ports[name]).map((n) => `127.0.0.1:${n.ports[name]}`).join(',');
  const kafka = {
    version: KAFKA_VERSION,
    clusterId,
    dir,
    bootstrap: listener('PLAINTEXT'),
    listeners: {
      PLAINTEXT: listener('PLAINTEXT'),
      CONTROLLER: listener('CONTROLLER'),
      ...(options.sasl ? { SASL_PLAINTEXT: listener('SASL_PLAINTEXT') } : {}),
      ...(ssl ? { SSL: listener('SSL') } : {}),
    },
    nodes: nodes.map((n) => ({ nodeId: n.nodeId, ports: { ...n.ports }, log: n.log, get pid() { return n.child?.pid; } })),
    ssl: ssl && { caPem: ssl.caPem, caPemFile: ssl.caPemFile, truststore: ssl.truststore, truststorePassword: ssl.password },
    users,
    /** Milliseconds from the JVMs' start to every node in Metadata. */
    startupMs: 0,

    /** The log of node `nodeId` so far (for a failing test's message). */
    log(nodeId = 1) {
      const node = nodes.find((n) => n.nodeId === nodeId);
      return node && existsSync(node.log) ? readFileSync(node.log, 'utf8') : '';
    },

    /**
     * Creates a topic through kafka-wire's client and waits until every partition's leader answers
     * for it: Metadata can name a leader before that broker leads the partition, and a client
     * producing then (kafkajs, which sends a broker's whole request again when one of its
     * partitions fails) would see NOT_LEADER_OR_FOLLOWER.
     */
    async createTopic(name, topicOptions = {}) {
      const client = await clientFor(kafka.bootstrap);
      try {
        const conn = await client.anyConnection();
        const res = await conn.request(19, undefined, {
          topics: [{
            name,
            numPartitions: topicOptions.partitions ?? 1,
            replicationFactor: topicOptions.replicationFactor ?? 1,
            assignments: [],
            configs: Object.entries(topicOptions.config ?? {}).map(([n, value]) => ({ name: n, value: String(value) })),
          }],
          timeoutMs: 30_000,
        });
        const t = res.topics[0];
        if (t.errorCode !== 0 && t.errorCode !== 36 /* TOPIC_ALREADY_EXISTS */) {
          throw new Error(`creating topic ${name}: error ${t.errorCode} ${t.errorMessage ?? ''}`);
        }
        await waitFor(async () => {
          try {
            const info = await client.topic(name, { attempts: 1 });
            for (const { partition, leader } of info.partitions) {
              const leaderConn = await client.broker(leader);
              const answer = await leaderConn.request(2 /* ListOffsets */, undefined, {
                replicaId: -1, topics: [{ name, partitions: [{ partitionIndex: partition, currentLeaderEpoch: -1, timestamp: -1n }] }],
              });
              if (answer.topics[0]?.partitions[0]?.errorCode !== 0) return false;
            }
            return true;
          } catch { return false; }
        }, 30_000, `topic ${name}'s leaders to answer for it`);
      } finally {
        await client.close();
      }
    },

    /** Stops one node (SIGTERM: a controlled shutdown; `kill: true` for SIGKILL). */
    async stopNode(nodeId, { kill = false } = {}) {
      const node = nodes.find((n) => n.nodeId === nodeId);
      if (!node?.child) return;
      await stopProcess(node.child, kill ? 'SIGKILL' : 'SIGTERM');
      node.child = undefined;
    },

    /** Starts a stopped node again and waits until it is back in Metadata. */
    async startNode(nodeId) {
      const node = nodes.find((n) => n.nodeId === nodeId);
      if (!node || node.child) return;
      startNodeProcess(node);
      await waitReady(kafka.bootstrap, nodes, [node]);
    },

    /**
     * Stops every node, then removes the data directory, unless `keepLogs` (a failed test):
     * then it stays, and its path is printed.
     */
    async stop({ keepLogs = false } = {}) {
      await Promise.all(nodes.map((n) => n.child && stopProcess(n.child, 'SIGTERM')));
      for (const n of nodes) n.child = undefined;
      if (keepLogs) console.warn(`kafka: logs kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    await waitReady(kafka.bootstrap, nodes, nodes);
  } catch (err) {
    await kafka.stop({ keepLogs: true });
    throw err;
  }
  kafka.startupMs = Date.now() - t0;
  return kafka;
}

async function clientFor(bootstrap) {
  const { KafkaClient } = await import(pathToFileURL(join(repoRoot, 'dist', 'src', 'wire', 'index.js')).href);
  return new KafkaClient({ bootstrap, clientId: 'kafka-wire-cluster', requestTimeoutMs: 10_000, connectTimeoutMs: 2_000 });
}

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`kafka: timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** Waits until each of `expected` is in Metadata (asked of the nodes that are running). */
async function waitReady(bootstrap, nodes, expected) {
  const deadline = Date.now() + 120_000;
  await waitFor(async () => {
    for (const n of nodes) {
      if (n.child && n.child.exitCode !== null) {
        throw new Error(`kafka: node ${n.nodeId} exited with ${n.child.exitCode} during startup; log ${n.log}:\n${tail(n.log)}`);
      }
    }
    const live = nodes.filter((n) => n.child).map((n) => `127.0.0.1:${n.ports.PLAINTEXT}`).join(',');
    const client = await clientFor(live || bootstrap);
    try {
      await client.metadata(null);
      return expected.every((n) => client.brokers.has(n.nodeId));
    } catch {
      return false;
    } finally {
      await client.close();
    }
  }, deadline - Date.now(), `${expected.length} node(s) in Metadata`);
}

function tail(file, lines = 40) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '';
}

/** Signals a JVM and waits for it to exit; SIGKILL after 30 s. */
function stopProcess(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => { try { child.kill('SIGKILL'); } catch { /* gone */ } }, 30_000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    try { child.kill(signal); } catch { clearTimeout(timer); resolve(); }
  });
}

// ---------------------------------------------------------------------------------------------
// npm run kafka

/** `npm run kafka -- ...`'s arguments as startKafka's options (throws on a bad --nodes or --port). */
export function launcherOptions(args) {
  const flag = (name) => args.includes(name);
  const value = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
  };
  const nodes = Number(value('--nodes', '1'));
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`kafka: --nodes must be a whole number from 1, not ${value('--nodes')}`);
  const portText = value('--port', undefined);
  const port = portText === undefined ? undefined : Number(portText);
  if (args.includes('--port') && (portText === undefined || !Number.isInteger(port) || port < 1 || port > 65535)) {
    throw new Error(`kafka: --port must be a port number (1-65535), not ${portText ?? 'nothing'}`);
  }
  return {
    nodes,
    sasl: flag('--sasl') ? { users: { 'kafka-wire': 'kafka-wire' } } : undefined,
    ssl: flag('--ssl'),
    ...(port !== undefined ? { port } : {}),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const flag = (name) => args.includes(name);
  if (flag('--help') || flag('-h')) {
    console.log('usage: npm run kafka [-- --nodes N] [--port PORT] [--sasl] [--ssl]  |  npm run kafka -- --prepare\n'
      + `Starts Apache Kafka ${KAFKA_VERSION} (KRaft, each node broker+controller) on 127.0.0.1 until Ctrl-C.\n`
      + 'It prints the bootstrap address (HOST:PORT) on stdout; --port 9092 puts the first node there (default: a free port).\n'
      + '--sasl adds a SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256/512) with user kafka-wire, password kafka-wire.\n'
      + '--ssl adds an SSL listener with a self-signed certificate for 127.0.0.1 (its PEM path is printed).\n'
      + '--prepare only resolves Kafka with Maven and compiles the Java programs (CI runs it before the tests).');
    process.exit(0);
  }
  if (flag('--prepare')) {
    const cp = await kafkaClasspath();
    console.error(`kafka: Apache Kafka ${KAFKA_VERSION} resolved (${cp.split(':').length} classpath entries)`);
    process.exit(0);
  }
  let options;
  try {
    options = launcherOptions(args);
    if (options.port !== undefined) await portIsFree(options.port);
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  const why = await kafkaAvailable();
  if (why) {
    console.error(`kafka: cannot start: ${why}`);
    process.exit(1);
  }
  const kafka = await startKafka(options);
  console.log(kafka.bootstrap);
  for (const [name, address] of Object.entries(kafka.listeners)) console.error(`kafka: ${name.padEnd(15)} ${address}`);
  if (kafka.ssl) console.error(`kafka: certificate      ${kafka.ssl.caPemFile}`);
  console.error(`kafka: Apache Kafka ${kafka.version}, ${kafka.nodes.length} node(s), ready in ${kafka.startupMs} ms; logs in ${kafka.dir}; Ctrl-C stops`);
  const stop = async () => {
    await kafka.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// The task registry: every (workload, case, contender, variant) row of the results tables,
// including the n/a rows (a peer without the feature), with how to count units and bytes.

export const WORKLOADS = ['fetch', 'produce', 'metadata', 'frames', 'crc'];
export const CONTENDERS = ['kafka-wire', 'kafkajs', 'platformatic', 'platformatic1', 'reference', 'kafka-wire-baseline'];

export const PEERS = ['kafkajs', 'platformatic', 'platformatic1'];
/** The peer's package as bench/package.json names it, and how the tables name it. */
export const PEER_PACKAGES = { platformatic: '@platformatic/kafka', platformatic1: 'platformatic-kafka-1' };
export const PEER_NAMES = { kafkajs: 'kafkajs', platformatic: '@platformatic/kafka 2.x', platformatic1: '@platformatic/kafka 1.x' };
/** How many decoded Fetch results a "kept alive" row holds, like a pipelined consumer. */
export const KEPT_RESULTS = 8;

export const WORKLOAD_TITLES = {
  fetch: 'Fetch response decode (records materialized)',
  produce: 'Produce request encode (v7, 1000 records, 1 uncompressed batch)',
  metadata: 'Metadata response, 500 topics x 10 partitions x 3 replicas',
  frames: 'Frame splitting: 64 MiB stream of mixed frames in 64 KiB chunks',
  crc: 'CRC-32C of 1 MiB',
};

export const FETCH_CASES = {
  none: '1 batch x 1000 records, uncompressed',
  none10: '10 batches x 1000 records, uncompressed',
  gzip: '1 batch x 1000 records, gzip',
  snappy: '1 batch x 1000 records, snappy (raw blocks)',
  lz4: '1 batch x 1000 records, lz4 (frame)',
  zstd: '1 batch x 1000 records, zstd (level 3)',
};

function t(workload, kase, contender, variant, version, label, extra = {}) {
  return { id: `${workload}/${kase}/${contender}/${variant}`, workload, case: kase, contender, variant, version, label, ...extra };
}

/**
 * Every row. `mode` groups what is compared: "eager" and "kept" rows are paired with the peers'
 * rows of the same mode; "positions" rows (kafka-wire's lazy access, no object per record) are
 * their own category with no ratio; other workloads have one mode.
 */
export function allTasks() {
  const tasks = [];
  // ---- fetch: every row reads each record's key, value and headers ----
  const peerFetch = (kase, mode, suffix) => {
    const builtIn = kase === 'none' || kase === 'none10' || kase === 'gzip';
    tasks.push(t('fetch', kase, 'kafkajs', `${mode}-v11`, 11, `kafkajs, v11${suffix}`, { mode, ...(builtIn ? {} : { na: `kafkajs has no built-in ${kase} codec (needs a plugin package)` }) }));
    for (const c of ['platformatic', 'platformatic1']) {
      tasks.push(t('fetch', kase, c, `${mode}-v12`, 12, `${PEER_NAMES[c]}, v12${suffix}`, { mode, ...(kase === 'zstd' ? { na: 'zstd needs node:zlib zstd (Node >= 22.15); not on Node 20' } : {}) }));
    }
  };
  for (const kase of Object.keys(FETCH_CASES)) {
    const uncompressed = kase === 'none' || kase === 'none10';
    tasks.push(t('fetch', kase, 'kafka-wire', 'eager-v12', 12, 'kafka-wire, v12', { mode: 'eager' }));
    // kafka-wire at kafkajs's version too, once (the same decoder: the ratios use v12 elsewhere).
    if (kase === 'none') tasks.push(t('fetch', kase, 'kafka-wire', 'eager-v11', 11, 'kafka-wire, v11', { mode: 'eager' }));
    peerFetch(kase, 'eager', '');
    if (uncompressed) {
      tasks.push(t('fetch', kase, 'kafka-wire', 'kept-v12', 12, `kafka-wire, v12, last ${KEPT_RESULTS} kept`, { mode: 'kept' }));
      peerFetch(kase, 'kept', `, last ${KEPT_RESULTS} kept`);
    }
    tasks.push(t('fetch', kase, 'kafka-wire', 'lazy-v12', 12, 'kafka-wire lazy (positions only), v12', { mode: 'positions' }));
  }
  for (const x of tasks) if (x.workload === 'fetch') x.unit = 'record';
  // ---- produce ----
  for (const c of ['kafka-wire', 'kafkajs', 'platformatic', 'platformatic1']) {
    tasks.push(t('produce', 'none', c, 'v7', 7, `${PEER_NAMES[c] ?? c}, v7`, { unit: 'record' }));
  }
  // ---- metadata ----
  tasks.push(t('metadata', 'decode', 'kafka-wire', 'v6', 6, 'kafka-wire decode, v6', { unit: 'partition' }));
  tasks.push(t('metadata', 'decode', 'kafka-wire', 'v12', 12, 'kafka-wire decode, v12', { unit: 'partition' }));
  tasks.push(t('metadata', 'decode', 'kafkajs', 'v6', 6, 'kafkajs decode, v6', { unit: 'partition' }));
  for (const c of ['platformatic', 'platformatic1']) tasks.push(t('metadata', 'decode', c, 'v12', 12, `${PEER_NAMES[c]} decode, v12`, { unit: 'partition' }));
  tasks.push(t('metadata', 'encode', 'kafka-wire', 'v6', 6, 'kafka-wire encode, v6', { unit: 'partition' }));
  tasks.push(t('metadata', 'encode', 'kafka-wire', 'v12', 12, 'kafka-wire encode, v12', { unit: 'partition' }));
  tasks.push(t('metadata', 'encode', 'kafkajs', 'v6', 6, 'kafkajs encode', { unit: 'partition', na: 'kafkajs has response decoders only' }));
  tasks.push(t('metadata', 'encode', 'platformatic', 'v12', 12, '@platformatic/kafka encode', { unit: 'partition', na: '@platformatic/kafka has response parsers only' }));
  // ---- frames ----
  tasks.push(t('frames', 'stream', 'kafka-wire', 'splitter', null, 'kafka-wire FrameSplitter', { unit: 'byte' }));
  tasks.push(t('frames', 'stream', 'kafka-wire', 'splitter-reuse', null, 'kafka-wire FrameSplitter { reuse: true }', { unit: 'byte' }));
  tasks.push(t('frames', 'stream', 'kafkajs', 'connection', null, 'kafkajs Connection#processData', { unit: 'byte' }));
  tasks.push(t('frames', 'stream', 'platformatic', 'connection', null, '@platformatic/kafka', { unit: 'byte', na: 'splitting is inside the private Connection#onData (no callable equivalent)' }));
  tasks.push(t('frames', 'stream', 'reference', 'memcpy', null, 'memcpy of the 64 KiB chunks into one 64 MiB buffer', { unit: 'byte' }));
  // ---- crc ----
  tasks.push(t('crc', '1MiB', 'kafka-wire', 'wasm', null, 'kafka-wire crc32c (WASM, incl. copy in)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'kafkajs', 'js', null, 'kafkajs crc32C (JS table)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'platformatic', 'default', null, '@platformatic/kafka crc32c (default: native @node-rs/crc32)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'platformatic', 'wasm', null, '@platformatic/wasm-utils crc32c (WASM fallback)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'platformatic', 'js', null, '@platformatic/kafka jsCRC32C (JS table)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'reference', 'memcpy', null, 'memcpy 1 MiB (Uint8Array.set)', { unit: 'byte' }));
  for (const x of tasks) x.mode ??= x.contender === 'reference' ? 'reference' : 'eager';
  // bench/run.mjs --baseline DIR sets this (for its children too): a checkout with dist/ built.
  if (process.env.KAFKA_WIRE_BENCH_BASELINE) {
    // The baseline's rows run in the same rounds as this build's (the pairs) and do what their
    // rows do (the same mode: eager, kept, positions); never a peer, never in a goal or the mixed
    // process. report.mjs sets each kafka-wire row's ratio against its twin.
    for (const x of tasks.filter((x) => x.contender === 'kafka-wire' && !x.na)) {
      tasks.push({ ...x, id: `${x.id}@baseline`, contender: 'kafka-wire-baseline', label: `${x.label} (baseline)`, twinOf: x.id });
    }
  }
  return tasks;
}

/** Units (records / partitions / bytes) and bytes handled by one call of a task. */
export function sizeOf(task, manifest) {
  switch (task.workload) {
    case 'fetch': {
      const f = manifest.fetch[task.case];
      const bytes = f[`v${task.version}`];
      return { units: f.records, bytes };
    }
    case 'produce': return { units: 1000, bytes: undefined }; // bytes: each contender's output frame, set by run.mjs
    case 'metadata': return { units: manifest.metadata.partitions, bytes: manifest.metadata[`v${task.version}`] };
    case 'frames': return { units: manifest.stream.bytes, bytes: manifest.stream.bytes };
    case 'crc': return { units: manifest.crc.bytes, bytes: manifest.crc.bytes };
  }
  throw new Error(task.id);
}

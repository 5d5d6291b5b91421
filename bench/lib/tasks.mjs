// The task registry: every (workload, case, contender, variant) row of the results tables,
// including the n/a rows (a peer without the feature), with how to count units and bytes.

export const WORKLOADS = ['fetch', 'produce', 'metadata', 'frames', 'crc'];
export const CONTENDERS = ['kafka-wire', 'kafkajs', 'platformatic', 'reference'];
export const PEERS = ['kafkajs', 'platformatic'];

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

export function allTasks() {
  const tasks = [];
  // ---- fetch ----
  for (const kase of Object.keys(FETCH_CASES)) {
    tasks.push(t('fetch', kase, 'kafka-wire', 'eager-v12', 12, 'kafka-wire eager, v12', { goal: kase === 'none' ? 'fetch-eager' : undefined }));
    tasks.push(t('fetch', kase, 'kafka-wire', 'lazy-v12', 12, 'kafka-wire lazy, v12', { goal: kase === 'none' ? 'fetch-lazy' : undefined }));
    if (kase === 'none' || kase === 'none10' || kase === 'gzip') tasks.push(t('fetch', kase, 'kafka-wire', 'eager-v11', 11, 'kafka-wire eager, v11'));
    if (kase === 'none' || kase === 'none10' || kase === 'gzip') tasks.push(t('fetch', kase, 'kafkajs', 'eager-v11', 11, 'kafkajs, v11'));
    else tasks.push(t('fetch', kase, 'kafkajs', 'eager-v11', 11, 'kafkajs', { na: `kafkajs has no built-in ${kase} codec (needs a plugin package)` }));
    if (kase === 'zstd') tasks.push(t('fetch', kase, 'platformatic', 'eager-v12', 12, '@platformatic/kafka', { na: 'zstd needs node:zlib zstd (Node >= 22.15); not on Node 20' }));
    else tasks.push(t('fetch', kase, 'platformatic', 'eager-v12', 12, '@platformatic/kafka, v12'));
  }
  for (const x of tasks) if (x.workload === 'fetch') x.unit = 'record';
  // ---- produce ----
  for (const c of ['kafka-wire', 'kafkajs', 'platformatic']) {
    tasks.push(t('produce', 'none', c, 'v7', 7, `${c === 'platformatic' ? '@platformatic/kafka' : c}, v7`, { unit: 'record', goal: c === 'kafka-wire' ? 'produce' : undefined }));
  }
  // ---- metadata ----
  tasks.push(t('metadata', 'decode', 'kafka-wire', 'v6', 6, 'kafka-wire decode, v6', { unit: 'partition' }));
  tasks.push(t('metadata', 'decode', 'kafka-wire', 'v12', 12, 'kafka-wire decode, v12', { unit: 'partition' }));
  tasks.push(t('metadata', 'decode', 'kafkajs', 'v6', 6, 'kafkajs decode, v6', { unit: 'partition' }));
  tasks.push(t('metadata', 'decode', 'platformatic', 'v12', 12, '@platformatic/kafka decode, v12', { unit: 'partition' }));
  tasks.push(t('metadata', 'encode', 'kafka-wire', 'v6', 6, 'kafka-wire encode, v6', { unit: 'partition' }));
  tasks.push(t('metadata', 'encode', 'kafka-wire', 'v12', 12, 'kafka-wire encode, v12', { unit: 'partition' }));
  tasks.push(t('metadata', 'encode', 'kafkajs', 'v6', 6, 'kafkajs encode', { unit: 'partition', na: 'kafkajs has response decoders only' }));
  tasks.push(t('metadata', 'encode', 'platformatic', 'v12', 12, '@platformatic/kafka encode', { unit: 'partition', na: '@platformatic/kafka has response parsers only' }));
  for (const x of tasks) if (x.workload === 'metadata') x.goal = x.contender === 'kafka-wire' ? `metadata-${x.case}` : undefined;
  // ---- frames ----
  tasks.push(t('frames', 'stream', 'kafka-wire', 'splitter', null, 'kafka-wire FrameSplitter', { unit: 'byte', goal: 'frames' }));
  tasks.push(t('frames', 'stream', 'kafka-wire', 'splitter-reuse', null, 'kafka-wire FrameSplitter { reuse: true }', { unit: 'byte' }));
  tasks.push(t('frames', 'stream', 'kafkajs', 'connection', null, 'kafkajs Connection#processData', { unit: 'byte' }));
  tasks.push(t('frames', 'stream', 'platformatic', 'connection', null, '@platformatic/kafka', { unit: 'byte', na: 'splitting is inside the private Connection#onData (no callable equivalent)' }));
  tasks.push(t('frames', 'stream', 'reference', 'memcpy', null, 'memcpy of the 64 KiB chunks into one 64 MiB buffer', { unit: 'byte' }));
  // ---- crc ----
  tasks.push(t('crc', '1MiB', 'kafka-wire', 'wasm', null, 'kafka-wire crc32c (WASM, incl. copy in)', { unit: 'byte', goal: 'crc' }));
  tasks.push(t('crc', '1MiB', 'kafkajs', 'js', null, 'kafkajs crc32C (JS table)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'platformatic', 'default', null, '@platformatic/kafka crc32c (default: native @node-rs/crc32)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'platformatic', 'wasm', null, '@platformatic/wasm-utils crc32c (WASM fallback)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'platformatic', 'js', null, '@platformatic/kafka jsCRC32C (JS table)', { unit: 'byte' }));
  tasks.push(t('crc', '1MiB', 'reference', 'memcpy', null, 'memcpy 1 MiB (Uint8Array.set)', { unit: 'byte' }));
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

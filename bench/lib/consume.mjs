// What a consumer does with a decoded Fetch response, shared by every contender's Fetch rows:
// read every record's key, value and headers (their lengths are summed into a sink, so no read is
// dead code), and in the "kept" rows hold the last KEPT_RESULTS results alive, as a pipelined
// consumer holds batches while it processes them (their objects then survive scavenges).
import { KEPT_RESULTS } from './tasks.mjs';

export const sink = { bytes: 0 };

const len = (x) => (x === null || x === undefined ? 0 : x.length);

/** Wraps `decode` (sync, or async when `isAsync`) into the timed function of a Fetch row. */
export function fetchLoop(task, decode, read, isAsync = false) {
  const ring = task.mode === 'kept' ? new Array(KEPT_RESULTS).fill(null) : null;
  let next = 0;
  const done = (out) => {
    sink.bytes += read(out);
    if (ring) { ring[next] = out; next = (next + 1) % KEPT_RESULTS; }
    return out;
  };
  return isAsync ? async () => done(await decode()) : () => done(decode());
}

/** kafka-wire: lists of batches of records whose headers are { key, value } objects. */
export function readKafkaWire(batchLists) {
  let n = 0;
  for (const batches of batchLists) {
    for (const b of batches) {
      for (const r of b.records) {
        n += len(r.key) + len(r.value);
        for (const h of r.headers) n += h.key.length + len(h.value);
      }
    }
  }
  return n;
}

/** kafkajs: messages whose headers are an object of Buffers (or arrays of them). */
export function readKafkajs(res) {
  let n = 0;
  for (const t of res.responses) {
    for (const p of t.partitions) {
      for (const m of p.messages) {
        n += len(m.key) + len(m.value);
        for (const k in m.headers) {
          const v = m.headers[k];
          n += k.length + (Array.isArray(v) ? v.reduce((a, x) => a + len(x), 0) : len(v));
        }
      }
    }
  }
  return n;
}

/** @platformatic/kafka: record batches whose records' headers are [key, value] Buffer pairs. */
export function readPlatformatic(res) {
  let n = 0;
  for (const t of res.responses) {
    for (const p of t.partitions) {
      for (const b of p.records ?? []) {
        for (const r of b.records) {
          n += len(r.key) + len(r.value);
          for (const [k, v] of r.headers) n += k.length + len(v);
        }
      }
    }
  }
  return n;
}

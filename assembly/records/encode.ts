// RecordBatch v2 encoding: records laid out from a spec into a batch, and the batch header's
// length, count and CRC-32C filled in.
import { E_OUT_OF_MEMORY, copy, fail, resetStatus, ensure, storeBe32 } from './common';
import { crc32cOf } from './crc';
import { sizeVarint, sizeVarlong, writeVarint, writeVarlong } from './varint';
import {
  SPEC_WORDS, SPEC_HEADER_WORDS, BATCH_LENGTH_OFFSET, CRC_OFFSET, ATTRIBUTES_OFFSET, RECORD_COUNT_OFFSET, RECORDS_OFFSET,
  BATCH_LENGTH_BASE, SPEC_ATTRIBUTES, SPEC_TIMESTAMP_DELTA, SPEC_OFFSET_DELTA, SPEC_KEY_LENGTH, SPEC_VALUE_LENGTH, SPEC_HEADER_COUNT,
} from '../../src/wasm/abi';

const SPEC_BYTES: usize = SPEC_WORDS << 2;
const SPEC_HEADER_BYTES: usize = SPEC_HEADER_WORDS << 2;

// @ts-ignore: decorator
@inline function nonNeg(v: i32): i32 { return v > 0 ? v : 0; }

/**
 * Encodes n records described by `spec` (its layout in src/wasm/abi.ts) whose bytes are
 * concatenated at `data` (key, value, then each header's key and value). Output goes to `out`, after a 61-byte batch header when withHeader != 0
 * (the caller fills the header fields; this fills batchLength, record count and CRC).
 * Returns the number of bytes written (including the header); fails when memory cannot grow.
 */
export function encodeRecords(spec: usize, n: i32, data: usize, out: usize, withHeader: i32): i32 {
  resetStatus();
  // One pass: each record's size is known before it is written, so memory grows record by record.
  let memEnd = (<usize>memory.size()) << 16;
  let s = spec;
  let d = data;
  let o = out + (withHeader ? <usize>RECORDS_OFFSET : 0);
  for (let r = 0; r < n; r++) {
    const attrs = load<i32>(s, SPEC_ATTRIBUTES << 2);
    const ts = load<i64>(s, SPEC_TIMESTAMP_DELTA << 2);
    const od = load<i32>(s, SPEC_OFFSET_DELTA << 2);
    const kl = load<i32>(s, SPEC_KEY_LENGTH << 2);
    const vl = load<i32>(s, SPEC_VALUE_LENGTH << 2);
    const hc = load<i32>(s, SPEC_HEADER_COUNT << 2);
    let body = 1 + sizeVarlong(ts) + sizeVarint(od) + sizeVarint(kl) + nonNeg(kl) +
      sizeVarint(vl) + nonNeg(vl) + sizeVarint(hc);
    let hs = s + SPEC_BYTES;
    for (let h = 0; h < hc; h++) {
      const hkl = load<i32>(hs);
      const hvl = load<i32>(hs, 4);
      body += sizeVarint(hkl) + nonNeg(hkl) + sizeVarint(hvl) + nonNeg(hvl);
      hs += SPEC_HEADER_BYTES;
    }
    const end = o + <usize>(sizeVarint(body) + body);
    if (end > memEnd) {
      if (!ensure(end)) return fail(E_OUT_OF_MEMORY, -1, -1);
      memEnd = (<usize>memory.size()) << 16;
    }
    o = writeVarint(o, body);
    store<u8>(o++, <u8>attrs);
    o = writeVarlong(o, ts);
    o = writeVarint(o, od);
    o = writeVarint(o, kl);
    if (kl > 0) { copy(o, d, <usize>kl); o += <usize>kl; d += <usize>kl; }
    o = writeVarint(o, vl);
    if (vl > 0) { copy(o, d, <usize>vl); o += <usize>vl; d += <usize>vl; }
    o = writeVarint(o, hc);
    s += SPEC_BYTES;
    for (let h = 0; h < hc; h++) {
      const hkl = load<i32>(s);
      const hvl = load<i32>(s, 4);
      o = writeVarint(o, hkl);
      if (hkl > 0) { copy(o, d, <usize>hkl); o += <usize>hkl; d += <usize>hkl; }
      o = writeVarint(o, hvl);
      if (hvl > 0) { copy(o, d, <usize>hvl); o += <usize>hvl; d += <usize>hvl; }
      s += SPEC_HEADER_BYTES;
    }
  }
  const written = <i32>(o - out);
  if (withHeader) finishBatch(out, written, n);
  return written;
}

/** Fills batchLength, record count and CRC-32C of a complete v2 batch of `size` bytes at p. */
export function finishBatch(p: usize, size: i32, count: i32): void {
  storeBe32(p + BATCH_LENGTH_OFFSET, size - BATCH_LENGTH_BASE);
  storeBe32(p + RECORD_COUNT_OFFSET, count);
  storeBe32(p + CRC_OFFSET, <i32>crc32cOf(p + ATTRIBUTES_OFFSET, <usize>(size - ATTRIBUTES_OFFSET), 0));
}

// Seeded random instances of any compiled message version: every present field gets a value of
// its type (edge values often), nullable fields are sometimes null, tagged fields sometimes set,
// and flexible structs sometimes carry unknown tagged fields. Arrays hold 0..maxArray items; with
// longArrayChance > 0, arrays near the top are sometimes long (LONG_ARRAY..2*LONG_ARRAY-1 items).
import {
  ARRAY, BOOL, BYTES, FLOAT64, INT16, INT32, INT64, INT8, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID,
  type CompiledField, type CompiledStruct,
} from '../../src/codec/plan.js';
import { bytesToBase64Url } from '../../src/text.js';
// @ts-ignore: a plain .mjs module (typed by its JSDoc), shared with the benchmark data
import { prng } from '../../bench/lib/prng.mjs';

export { prng };

/** The fewest items in a long array: long ones reach past 127, where a compact array's length varint takes two bytes. */
const LONG_ARRAY = 100;

const STRINGS = ['', 'a', 'topic-1', 'ünïcødé', '日本語', '🎉 emoji', 'x'.repeat(130)];

export class RandomInstances {
  constructor(private readonly random: () => number, private readonly maxArray = 3, private readonly longArrayChance = 0) {}

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  struct(s: CompiledStruct, depth = 0): any {
    const o = s.create();
    for (const f of [...s.regular, ...s.tagged]) {
      if (f.tag >= 0 && this.random() < 0.5) continue; // leave tagged fields at their defaults half the time
      o[f.name] = this.field(f, depth);
    }
    if (s.flexible && this.random() < 0.2) {
      const tag = 1000 + this.int(100);
      o._unknownTaggedFields = { [tag]: this.bytes(this.int(4)) };
    }
    return o;
  }

  field(f: CompiledField, depth: number): any {
    if (f.nullable && this.random() < 0.2) return null;
    if (f.kind !== ARRAY) return this.value(f.kind, f.struct, depth);
    let n = depth > 3 ? 0 : this.int(this.maxArray + 1);
    // Only when asked, so the draws (and the instances) of seeded callers without it stay the same.
    if (this.longArrayChance > 0 && depth <= 1 && this.random() < this.longArrayChance) n = LONG_ARRAY + this.int(LONG_ARRAY);
    const items = [];
    for (let i = 0; i < n; i++) items.push(this.value(f.elementKind, f.struct, depth + 1));
    return items;
  }

  bytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }

  value(kind: number, struct: CompiledStruct | null, depth: number): any {
    const edge = this.random() < 0.3;
    switch (kind) {
      case BOOL: return this.random() < 0.5;
      case INT8: return edge ? this.pick([-128, 127, -1, 0]) : this.int(256) - 128;
      case INT16: return edge ? this.pick([-32768, 32767, -1, 0]) : this.int(65536) - 32768;
      case UINT16: return edge ? this.pick([0, 65535]) : this.int(65536);
      case INT32: return edge ? this.pick([-2147483648, 2147483647, -1, 0]) : this.int(2 ** 32) - 2 ** 31;
      case UINT32: return edge ? this.pick([0, 4294967295]) : this.int(2 ** 32);
      case INT64: return edge
        ? this.pick([-(2n ** 63n), 2n ** 63n - 1n, -1n, 0n])
        : BigInt.asIntN(64, (BigInt(this.int(2 ** 32)) << 32n) | BigInt(this.int(2 ** 32)));
      case FLOAT64: return edge ? this.pick([0, -0.5, Infinity, -Infinity, NaN, Number.MAX_VALUE]) : (this.random() - 0.5) * 1e6;
      case UUID: return bytesToBase64Url(this.bytes(16), 0);
      case STRING: return this.pick(STRINGS);
      case BYTES: case RECORDS: return this.bytes(this.int(20));
      case STRUCT: return this.struct(struct!, depth + 1);
    }
    throw new Error(`unknown kind ${kind}`);
  }
}

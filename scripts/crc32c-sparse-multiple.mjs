// Finds the six-term multiple of the CRC-32C polynomial with word-aligned exponents and the least
// span that assembly/records/crc.ts folds with: Q = Y^D + Y^a + Y^b + Y^c + Y^d + 1, Y = x^64.
// Run: node scripts/crc32c-sparse-multiple.mjs   (prints the exponents and checks them).
//
// Search: with y(e) = x^(64e) mod P, Q is a multiple of P exactly when the six y values XOR to
// zero. For each span D in turn, every pair {a, b} of exponents in (0, D) goes into a map keyed
// by y(a) ^ y(b); a solution is two disjoint pairs whose keys XOR to y(0) ^ y(D). The first D with
// a solution is the least (every pair below D is in the map when D is tried).
//
// Check, independent of the search: the raw CRC-32C register (initial value 0, no final XOR, the
// reflected bit order Kafka uses) after the bytes whose bits are Q's coefficients is Q * x^32 mod P,
// so it is zero exactly when P divides Q.

// CRC-32C's polynomial without its x^32 term, highest degree in the top bit (0x82F63B78 reflected).
const POLY = 0x1edc6f41;
const REFLECTED_POLY = 0x82f63b78;
const WORD_BITS = 64;
const TERMS = 6;

/** a * x mod P (a of degree < 32, as an unsigned 32-bit integer). */
function timesX(a) {
  const carry = a >>> 31;
  a = (a << 1) >>> 0;
  return carry ? (a ^ POLY) >>> 0 : a;
}

function search(maxSpan) {
  const y = [];
  for (let e = 0, a = 1; e <= maxSpan; e++) {
    y.push(a);
    for (let i = 0; i < WORD_BITS; i++) a = timesX(a);
  }
  const pairs = new Map(); // y(a) ^ y(b) -> [a, b][]
  for (let D = TERMS - 1; D <= maxSpan; D++) {
    const b = D - 1;
    for (let a = 1; a < b; a++) {
      const key = y[a] ^ y[b];
      const list = pairs.get(key);
      if (list) list.push([a, b]);
      else pairs.set(key, [[a, b]]);
    }
    const target = y[0] ^ y[D];
    for (const [key, list] of pairs) {
      const others = pairs.get((key ^ target) >>> 0);
      if (!others) continue;
      for (const p of list) {
        for (const q of others) {
          const middle = new Set([...p, ...q]);
          if (middle.size === TERMS - 2) return [0, ...[...middle].sort((s, t) => s - t), D];
        }
      }
    }
  }
  return null;
}

/** Raw CRC-32C register over Q's coefficients, highest degree first, bit 0 of each byte first. */
function rawCrcOfPolynomial(exponentsInWords) {
  const degree = Math.max(...exponentsInWords) * WORD_BITS;
  const bytes = new Uint8Array(Math.ceil((degree + 1) / 8));
  const bits = bytes.length * 8;
  for (const e of exponentsInWords) {
    const j = bits - 1 - e * WORD_BITS; // message bit j has degree bits - 1 - j
    bytes[j >>> 3] |= 1 << (j & 7);
  }
  let c = 0;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ REFLECTED_POLY : c >>> 1;
  }
  return c >>> 0;
}

const found = search(400);
if (!found) throw new Error('no six-term multiple with span up to 400 words');
const residue = rawCrcOfPolynomial(found);
console.log(`Q = ${[...found].reverse().map((e) => (e ? `Y^${e}` : '1')).join(' + ')}, Y = x^${WORD_BITS}`);
console.log(`exponents (words): ${found.join(', ')}; span ${found[found.length - 1]} words (${found[found.length - 1] * 8} bytes)`);
console.log(`raw CRC-32C of Q's coefficient bytes: 0x${residue.toString(16).padStart(8, '0')} (${residue === 0 ? 'a multiple of P' : 'NOT a multiple of P'})`);
if (residue !== 0) process.exit(1);

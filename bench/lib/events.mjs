// Deterministic "1 MiB of JSON events": the input the compression benchmarks and the ratio tests
// share, so every codec (ours, the reference tools, other clients) sees the very same bytes.
import { prng } from './prng.mjs';

const EVENTS = ['page_view', 'click', 'add_to_cart', 'purchase', 'search', 'login', 'logout', 'scroll'];
const PAGES = ['/', '/home', '/search', '/cart', '/checkout', '/account', '/products/shoes', '/products/shirts', '/help'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
];
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'CA', 'AU', 'NL'];
const HEX = '0123456789abcdef';

/**
 * `size` bytes (default 1 MiB) of newline-separated JSON events drawn from a seeded PRNG: ids,
 * timestamps, enum-like strings, numbers and random hex, like a real click stream.
 * @param {number} [size]
 * @param {number} [seed]
 * @returns {Uint8Array}
 */
export function jsonEvents(size = 1 << 20, seed = 16) {
  const rnd = prng(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const hex = (n) => { let s = ''; for (let i = 0; i < n; i++) s += HEX[Math.floor(rnd() * 16)]; return s; };
  // Visitors come back: events are drawn from a pool of sessions, each with its own user, agent and country.
  const sessions = Array.from({ length: 400 }, () => ({
    session: hex(16), user: `user-${Math.floor(rnd() * 50_000)}`, agent: pick(AGENTS), country: pick(COUNTRIES),
  }));
  const parts = [];
  let length = 0;
  let ts = 1_700_000_000_000;
  for (let id = 0; length < size; id++) {
    ts += Math.floor(rnd() * 250);
    const s = pick(sessions);
    const event = {
      id, ts, type: pick(EVENTS), user: s.user, session: s.session, page: pick(PAGES), country: s.country,
      agent: s.agent, amount: Math.round(rnd() * 100_000) / 100, items: Math.floor(rnd() * 5), ok: rnd() < 0.97,
    };
    const line = JSON.stringify(event) + '\n';
    parts.push(line);
    length += line.length;
  }
  return new TextEncoder().encode(parts.join('')).subarray(0, size);
}

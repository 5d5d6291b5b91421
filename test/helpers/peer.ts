// The one rule for tests that need something outside the repo (a peer program, a tool, a browser,
// ../shared, Java and Maven, real Kafka): in CI (CI=true, as .ci/run is run) a missing one fails
// the test file; anywhere else the tests skip, with one line naming what is missing and how to get
// it. Every such test asks here, so a new one cannot forget the rule.
//
//   const ok = peer('tshark', hasCommand('tshark'), 'apt-get install tshark');
//   describe.skipIf(!ok)('against tshark', () => { ... });

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** True when a missing peer must fail rather than skip: CI, or KAFKA_WIRE_REQUIRE_ALL=1 by hand. */
export function peersRequired(): boolean {
  const ci = process.env.CI;
  return (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') || process.env.KAFKA_WIRE_REQUIRE_ALL === '1';
}

const said = new Set<string>();

/**
 * Whether the peer `what` is here. When it is not: throws under CI (so the file fails), else prints
 * one SKIPPED line (once per process) and returns false.
 */
export function peer(what: string, available: boolean, install: string): boolean {
  if (available) return true;
  const line = `SKIPPED: ${what} is missing (${install})`;
  if (peersRequired()) throw new Error(`${line.replace('SKIPPED: ', '')}; CI requires it`);
  if (!said.has(line)) {
    said.add(line);
    console.warn(line);
  }
  return false;
}

/** Async form of `peer`, for checks that must run something first (build a fixture, start a JVM). */
export async function peerAsync(what: string, check: () => Promise<boolean>, install: string): Promise<boolean> {
  let ok = false;
  try { ok = await check(); } catch { ok = false; }
  return peer(what, ok, install);
}

/** Whether a command is on PATH (runs `command -v`, nothing else). */
export function hasCommand(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Whether a path exists (for ../shared and built fixtures). */
export function hasPath(path: string): boolean {
  return existsSync(path);
}

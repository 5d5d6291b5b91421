// Waiting for an event rather than for a fixed time: a test on a loaded 2-core machine must not
// depend on how fast the other side is, only on what it did.

/** Resolves once `done()` holds (checked every few ms); rejects naming `what` after `timeoutMs`. */
export async function waitUntil(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

// Records hooks known never to call the message codec (the records module's own decoder, which
// has its own WebAssembly memory): decodes that use one read the scan's tape in place instead of
// from a copy. Internal to the codec, so not part of kafka-wire/core.

export const leavesCodecAlone = new WeakSet<(records: Uint8Array) => unknown>();

/** Marks `hook` as one that never calls the message codec. */
export function codecFreeRecordsHook<H extends (records: Uint8Array) => unknown>(hook: H): H {
  leavesCodecAlone.add(hook);
  return hook;
}

// Defaults shared by the codec and the frame splitter, and the Fetch sizes the consume command and
// the consumer both ask for.

/**
 * The largest frame size field accepted: 100 MiB, Kafka's default socket.request.max.bytes. Like
 * Kafka's setting it counts the bytes after the 4-byte size prefix.
 */
export const DEFAULT_MAX_FRAME_SIZE = 100 * 1024 * 1024;

/**
 * Fetch sizes: up to 2 MiB per partition (responses small enough that formatting one overlaps the
 * broker building the next; 8 MiB measured slower) and 64 MiB in all.
 */
export const FETCH_PARTITION_MAX_BYTES = 2 << 20;
export const FETCH_MAX_BYTES = 64 << 20;

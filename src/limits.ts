// Defaults shared by the codec and the frame splitter.

/**
 * The largest frame size field accepted: 100 MiB, Kafka's default socket.request.max.bytes. Like
 * Kafka's setting it counts the bytes after the 4-byte size prefix.
 */
export const DEFAULT_MAX_FRAME_SIZE = 100 * 1024 * 1024;

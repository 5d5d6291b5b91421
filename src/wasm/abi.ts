// The contract between the WebAssembly modules (assembly/) and the TypeScript facade (src/): every
// number both sides must agree on, as plain constants that AssemblyScript and TypeScript both
// compile (assembly/ imports this file directly), so each number is written once.

// ---- both modules ----

// A failing call leaves its reason in the module's status block (statusPtr(), STATUS_BYTES bytes)
// as words: the code, the byte offset, then the module's own context; then it traps, which
// unwinds the call at once however deep it was (src/wasm/status.ts reads the block).
// A call clears the code (0: none) when it starts.
export const STATUS_BYTES = 64;
export const STATUS_CODE = 0;
export const STATUS_OFFSET = 1;
/** The scan's nesting depth at the failure (its field path is in pathOps/pathIndexes). */
export const STATUS_DEPTH = 2;
// The records module's context: the batch, record and header being read (-1 for none), the field
// code, and for a CRC mismatch the CRC computed.
export const STATUS_BATCH = 2;
export const STATUS_RECORD = 3;
export const STATUS_HEADER = 4;
export const STATUS_FIELD = 5;
export const STATUS_AUX0 = 6;

// The one memory both modules import (src/wasm/memory.ts), laid out so that neither's static data
// meets the other's nor the arena, whichever module is instantiated first (scripts/asbuild.mjs
// reads these numbers for --memoryBase, and checks each module's data ends below its limit).
/**
 * The codec's static data: [1024, CRC32C_TABLE_BASE), AssemblyScript's default place (no
 * --memoryBase: Binaryen then folds constant offsets into loads, knowing the first 1 KiB unused).
 */
/** The records' CRC-32C table, [CRC32C_TABLE_BASE, RECORDS_DATA_BASE), then its static data. */
export const CRC32C_TABLE_BASE = 2048;
export const RECORDS_DATA_BASE = 18432;
/** The arena (programs, then scratch) starts above all static data. */
export const ARENA_BASE = 131072;

// ---- message codec (assembly/codec.ts and assembly/codec/, src/codec/) ----

// Field kinds: the low byte of an op's first word; an array's element kind is the next byte.
export const BOOL = 1;
export const INT8 = 2;
export const INT16 = 3;
export const UINT16 = 4;
export const INT32 = 5;
export const UINT32 = 6;
export const INT64 = 7;
export const FLOAT64 = 8;
export const UUID = 9;
export const STRING = 10;
export const BYTES = 11;
export const RECORDS = 12;
export const STRUCT = 13;
export const ARRAY = 14;
export const KIND_MASK = 0xff;
export const ELEMENT_KIND_SHIFT = 8;
export const NULLABLE = 1 << 16;
export const COMPACT = 1 << 17;

// A compiled struct block: a header of 3 words [regularCount, taggedCount, flags], then one op of
// 4 words per field, regular fields first: [kind word, struct address, tag, min element size].
export const STRUCT_HEADER_WORDS = 3;
export const STRUCT_HEADER = STRUCT_HEADER_WORDS * 4;
export const OP_WORDS = 4;
export const OP_SIZE = OP_WORDS * 4;
// Byte offsets of the header's words and of an op's words.
export const STRUCT_TAGGED_COUNT = 4;
export const STRUCT_FLAGS = 8;
export const OP_STRUCT = 4;
export const OP_TAG = 8;
export const OP_MIN_ELEMENT = 12;
// Struct flags.
export const FLEXIBLE = 1;
/** Every regular field is a fixed-size number or an array of fixed-size integers: the scan's fast path. */
export const FLAT = 2;

// The scan's error codes.
export const E_TRUNCATED = 1;
export const E_NEGATIVE_LENGTH = 2;
export const E_VARINT_TOO_LONG = 3;
export const E_VARINT_OVERFLOW = 4;
export const E_INVALID_UTF8 = 5;
export const E_DUPLICATE_TAG = 6;
export const E_TAGGED_SIZE_MISMATCH = 7;
export const E_TRAILING_BYTES = 8;
export const E_FRAME_SIZE_MISMATCH = 9;
/** Not an error of the input: the facade retries with a larger tape. */
export const E_TAPE_FULL = 10;
export const E_ARRAY_LIMIT = 11;
export const E_LENGTH_LIMIT = 12;
export const E_DEPTH_LIMIT = 13;

// ---- records (assembly/records/, src/records/) ----

// The records functions' error codes (0: none).
export const RECORDS_OK = 0;
export const RECORDS_TRUNCATED = 1;
export const RECORDS_INVALID_LENGTH = 2;
export const RECORDS_VARINT_TOO_LONG = 3;
export const RECORDS_CRC_MISMATCH = 4;
export const RECORDS_UNSUPPORTED_MAGIC = 5;
export const RECORDS_RECORD_COUNT = 6;
export const RECORDS_RECORD_LENGTH_MISMATCH = 7;
export const RECORDS_TRAILING_BYTES = 8;
export const RECORDS_BATCH_TOO_SHORT = 9;
export const RECORDS_TOO_LARGE = 10;
export const RECORDS_CORRUPT_COMPRESSED = 11;
export const RECORDS_UNSUPPORTED_COMPRESSION = 12;
export const RECORDS_OUT_OF_MEMORY = 13;
export const RECORDS_CHECKSUM = 14;

// Field codes in the status block, from which the facade builds an error's path.
export const FIELD_BATCH = 0;
export const FIELD_RECORD_LENGTH = 1;
export const FIELD_ATTRIBUTES = 2;
export const FIELD_TIMESTAMP_DELTA = 3;
export const FIELD_OFFSET_DELTA = 4;
export const FIELD_KEY_LENGTH = 5;
export const FIELD_VALUE_LENGTH = 6;
export const FIELD_HEADER_COUNT = 7;
export const FIELD_HEADER_KEY_LENGTH = 8;
export const FIELD_HEADER_VALUE_LENGTH = 9;
export const FIELD_CRC = 10;
export const FIELD_BATCH_LENGTH = 11;
export const FIELD_MAGIC = 12;
export const FIELD_RECORD_COUNT = 13;
export const FIELD_RECORDS = 14;
export const FIELD_RECORD = 15;
export const FIELD_COMPRESSED = 16;

// scanBatches' tape: a header of 8 words, then one entry of 8 words per batch.
export const SCAN_HEADER_WORDS = 8;
export const SCAN_COUNT = 0;
export const SCAN_TRUNCATED = 1;
export const SCAN_CONSUMED = 2;
export const SCAN_ROWS = 3;
export const SCAN_TOTAL_ROWS = 4;
export const SCAN_HEADERS = 5;
export const SCAN_TOTAL_HEADERS = 6;
export const SCAN_END = 7;
export const ENTRY_WORDS = 8;
export const ENTRY_MAGIC = 0;
export const ENTRY_START = 1;
export const ENTRY_LENGTH = 2;
export const ENTRY_ATTRIBUTES = 3;
export const ENTRY_RECORD_COUNT = 4;
/** The entry's first row, or -1 when its records were not walked (compressed or legacy). */
export const ENTRY_ROW_START = 5;
export const ENTRY_HEADER_START = 6;
export const ENTRY_HEADER_END = 7;

// walkRecords' tape header (8 words): [rows address, count, headers address, header count, end,
// and from spanRecords: where the walk stopped (from the records' start), spans address].
export const WALK_HEADER_WORDS = 8;
export const WALK_ROWS = 0;
export const WALK_COUNT = 1;
export const WALK_HEADERS = 2;
export const WALK_HEADER_COUNT = 3;
export const WALK_END = 4;
export const WALK_STOP = 5;
export const WALK_SPANS = 6;

// spanRecords' spans, one per record (words, offsets from the records' start): where the record
// starts, where its length, timestampDelta, offsetDelta and header count varints end, and where
// it ends. The attributes byte follows the length; every other boundary is in the record's row
// and headers (a key or value starts at its offset, its length varint ends there).
export const SPAN_WORDS = 6;
export const SPAN_START = 0;
export const SPAN_LENGTH_END = 1;
export const SPAN_TIMESTAMP_DELTA_END = 2;
export const SPAN_OFFSET_DELTA_END = 3;
export const SPAN_HEADER_COUNT_END = 4;
export const SPAN_END = 5;

// One row per record (words): attributes, timestampDelta (lo, hi), offsetDelta, key offset and
// length (-1 null), value offset and length (-1 null), header count, first header index.
export const ROW_WORDS = 10;
export const ROW_ATTRIBUTES = 0;
export const ROW_TIMESTAMP_DELTA = 1;
export const ROW_OFFSET_DELTA = 3;
export const ROW_KEY_OFFSET = 4;
export const ROW_KEY_LENGTH = 5;
export const ROW_VALUE_OFFSET = 6;
export const ROW_VALUE_LENGTH = 7;
export const ROW_HEADER_COUNT = 8;
export const ROW_FIRST_HEADER = 9;
// One entry per record header (words): key offset and length, value offset and length (-1 null).
export const HEADER_WORDS = 4;
export const HEADER_KEY_OFFSET = 0;
export const HEADER_KEY_LENGTH = 1;
export const HEADER_VALUE_OFFSET = 2;
export const HEADER_VALUE_LENGTH = 3;
// Header keys repeat from record to record: outside spans mode the walk points a header key that
// has the same bytes as the key at the same position of the batch's previous record at that
// earlier key, for this many positions, so the facade reuses its string on equal offsets.
export const REPEATED_HEADER_KEYS = 8;

// encodeRecords' spec (words): per record attributes, timestampDelta (lo, hi), offsetDelta, key
// length, value length (-1 null), header count; then per header key length and value length.
export const SPEC_WORDS = 7;
export const SPEC_ATTRIBUTES = 0;
export const SPEC_TIMESTAMP_DELTA = 1;
export const SPEC_OFFSET_DELTA = 3;
export const SPEC_KEY_LENGTH = 4;
export const SPEC_VALUE_LENGTH = 5;
export const SPEC_HEADER_COUNT = 6;
export const SPEC_HEADER_WORDS = 2;

// RecordBatch v2 header: byte offsets from the batch's start (baseOffset).
export const BATCH_LENGTH_OFFSET = 8;
export const PARTITION_LEADER_EPOCH_OFFSET = 12;
export const MAGIC_OFFSET = 16;
export const CRC_OFFSET = 17;
/** The CRC-32C covers the batch from the attributes to its end. */
export const ATTRIBUTES_OFFSET = 21;
export const LAST_OFFSET_DELTA_OFFSET = 23;
export const BASE_TIMESTAMP_OFFSET = 27;
export const MAX_TIMESTAMP_OFFSET = 35;
export const PRODUCER_ID_OFFSET = 43;
export const PRODUCER_EPOCH_OFFSET = 51;
export const BASE_SEQUENCE_OFFSET = 53;
export const RECORD_COUNT_OFFSET = 57;
/** The first record, right after the 61-byte header. */
export const RECORDS_OFFSET = 61;
/** The batch length counts the bytes after the length field. */
export const BATCH_LENGTH_BASE = 12;
/** The low 3 bits of the attributes: the compression codec (0 none). */
export const COMPRESSION_MASK = 7;
export const COMPRESSION_SNAPPY = 2;
export const COMPRESSION_LZ4 = 3;

// splitRecords' table (words): a status block, then one entry per partition of the open batch
// being filled in WebAssembly memory (src/records/split.ts).
export const SPLIT_REASON = 0;
export const SPLIT_PARTITION = 1;
/** In and out: the number of the next record (written to each partition's numbers column). */
export const SPLIT_RECORD = 2;
export const SPLIT_STATUS_WORDS = 4;
export const SPLIT_PART_WORDS = 6;
/** Where the partition's next record goes (an address). */
export const SPLIT_POS = 0;
/** Records end at or before this address, unless the batch is empty... */
export const SPLIT_END = 1;
/** ...when the one record may reach this one (a record larger than the batch size). */
export const SPLIT_HARD_END = 2;
/** Records in the batch: the next record's offset delta. */
export const SPLIT_COUNT = 3;
export const SPLIT_TIMESTAMP_DELTA = 4;
/** Address of the next slot of the batch's record numbers (int32 each). */
export const SPLIT_NUMBERS = 5;
// Why splitRecords stopped (SPLIT_REASON); the bytes it consumed are its result.
/** No complete record left (the rest waits for more input). */
export const SPLIT_NEED_MORE = 0;
/** Partition SPLIT_PARTITION's batch has no room for the next record: seal it, call again. */
export const SPLIT_FULL = 1;
/** The next record has no key delimiter and partitions are hashed from keys: the caller picks one. */
export const SPLIT_NO_KEY = 2;
/** The next record's key and value are more than the record limit. */
export const SPLIT_TOO_LARGE = 3;

// jsonLines' block (words): what the call reads, then what it reports. Addresses are absolute in
// the shared memory; `data` is biased so that data + a row's key or value offset is the byte.
export const JSON_DATA = 0;
export const JSON_ROWS = 1;
export const JSON_COUNT = 2;
/** Biased as data: hdrs + header index * HEADER_WORDS * 4 is that header's entry. */
export const JSON_HEADERS = 3;
export const JSON_OUT = 4;
export const JSON_OUT_END = 5;
/** The line's start up to the offset's digits ({"topic":...,"partition":P,"offset":). */
export const JSON_HEAD = 6;
export const JSON_HEAD_LENGTH = 7;
/** The batch's baseOffset (lo, hi). */
export const JSON_BASE_OFFSET = 8;
/** The batch's baseTimestamp, or with JSON_LOG_APPEND its maxTimestamp (lo, hi). */
export const JSON_TIMESTAMP = 10;
/** 1: every record's timestamp is JSON_TIMESTAMP (a log-append-time batch). */
export const JSON_LOG_APPEND = 12;
/** Reported: records written whole, the end of what was written, and why it stopped. */
export const JSON_DONE = 13;
export const JSON_WRITTEN_END = 14;
export const JSON_REASON = 15;
/** Bytes every line carries after its headers, before its closing brace (a share record's ,"deliveryCount":N); length 0: none. */
export const JSON_TAIL = 16;
export const JSON_TAIL_LENGTH = 17;
export const JSON_BLOCK_WORDS = 18;
/** Reasons: every record written; the output region is full; record JSON_DONE needs the JS writer. */
export const JSON_ALL = 0;
export const JSON_FULL = 1;
export const JSON_ASIDE = 2;

// Public types of the records layer.

export type CompressionName = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';
export const COMPRESSION_NAMES: readonly CompressionName[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];
export const Compression = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;
export type TimestampType = 'create' | 'logAppend';

/** Batch attribute bits (RecordBatch v2). */
export const Attributes = {
  compressionMask: 0x07,
  timestampTypeLogAppend: 0x08,
  transactional: 0x10,
  control: 0x20,
  deleteHorizon: 0x40,
} as const;

export interface RecordHeader {
  key: string;
  value: Uint8Array | null;
}

/** Decoded control record (key: version int16, type int16; value: version int16, coordinatorEpoch int32). */
export interface ControlRecord {
  version: number;
  /** 0 abort, 1 commit (other values are possible on newer brokers). */
  typeCode: number;
  type: 'abort' | 'commit' | 'unknown';
  /** From the EndTxnMarker value when present. */
  coordinatorEpoch?: number;
}

export interface DecodeOptions {
  /** Verify the CRC-32C of v2 batches (CRC-32 of legacy messages). Default true. */
  verifyCrc?: boolean;
  /** Materialize record objects only when accessed (columnar accessors stay cheap). Default false. */
  lazy?: boolean;
  /** Maximum decompressed size of one compressed batch / legacy wrapper. Default 64 MiB. */
  maxDecompressedBytes?: number;
  /** Maximum records one v2 batch may declare. Default 2^20. */
  maxRecordsPerBatch?: number;
  /**
   * @internal Where a lazy decode's row tables (one for the rows, one for the headers of all its
   * uncompressed batches) are allocated: the consumer's FramePool, so that released batches' tables
   * are reused (PartitionBatch.release()). Default: memory of their own.
   */
  allocateTables?: (bytes: number) => Uint8Array;
}

export interface CompressOptions {
  /** gzip compression level 0-9 (default 6). */
  gzipLevel?: number;
  /** zstd compression level, -131072 to 22 as in Kafka's compression.zstd.level (default 3). */
  zstdLevel?: number;
  /** Snappy framing: 'xerial' (what the Java client writes, default) or 'raw'. */
  snappyFraming?: 'xerial' | 'raw';
}

export type EncodeOptions = CompressOptions;

export interface ControlRecordInput {
  /** 'abort' (0), 'commit' (1) or a raw type code; typeCode wins when both are given. */
  type: 'abort' | 'commit' | 'unknown' | number;
  typeCode?: number;
  version?: number;
  coordinatorEpoch?: number;
}

export interface RecordInput {
  key?: Uint8Array | string | null;
  value?: Uint8Array | string | null;
  headers?: ReadonlyArray<{ key: string | Uint8Array; value?: Uint8Array | string | null }>;
  /** Absolute timestamp (ms); used when timestampDelta is absent. */
  timestamp?: bigint | number;
  /** Delta from the batch's baseTimestamp; wins over `timestamp`. */
  timestampDelta?: bigint | number;
  /** Default: the record's index in the batch. */
  offsetDelta?: number;
  /** Record attributes byte (unused by Kafka so far). Default 0. */
  attributes?: number;
  /** For control batches: encodes key and value as an end-transaction marker. */
  control?: ControlRecordInput;
}

export interface RecordBatchInput {
  baseOffset?: bigint | number;
  partitionLeaderEpoch?: number;
  compression?: CompressionName | number;
  timestampType?: TimestampType;
  isTransactional?: boolean;
  isControl?: boolean;
  hasDeleteHorizon?: boolean;
  /** Default: the last record's offsetDelta (0 when empty). */
  lastOffsetDelta?: number;
  /** Default: the first record's `timestamp`, else Date.now(). */
  baseTimestamp?: bigint | number;
  /** Default: baseTimestamp + the largest timestampDelta. */
  maxTimestamp?: bigint | number;
  producerId?: bigint | number;
  producerEpoch?: number;
  baseSequence?: number;
  records: readonly RecordInput[];
}

export interface RecordHeaderJson {
  key: string;
  value: string | null;
}

export interface RecordJson {
  offset: string;
  timestamp: string;
  key: string | null;
  value: string | null;
  headers: RecordHeaderJson[];
}

export interface RecordBatchJson {
  baseOffset: string;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  compression: CompressionName;
  timestampType: TimestampType;
  isTransactional: boolean;
  isControl: boolean;
  lastOffsetDelta: number;
  baseTimestamp: string;
  maxTimestamp: string;
  producerId: string;
  producerEpoch: number;
  baseSequence: number;
  records: RecordJson[];
}

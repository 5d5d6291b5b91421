// Real Apache Kafka for a test file, under the peer rule (test/helpers/peer.ts): where Java or
// Maven is missing the file's tests skip with a line saying so, and in CI they fail.
//
//   const ok = await kafkaPeer();
//   describe.skipIf(!ok)('against Kafka', () => {
//     const kafka = useKafka({ nodes: 3 });     // started in beforeAll, stopped in afterAll
//     it('...', async () => { ... kafka().bootstrap ... });
//   });
//
// The cluster's data directory (with each node's log) is kept when a test in the file failed.

import { afterAll, afterEach, beforeAll } from 'vitest';
// @ts-expect-error: a plain-JavaScript module (JSDoc-typed) shared with benchmarks and npm run kafka
import * as cluster from '../../kafka/cluster.mjs';
import { peerAsync } from './peer.js';

export interface KafkaNode { nodeId: number; ports: Record<string, number>; log: string; readonly pid: number | undefined }
export interface RealKafka {
  version: string;
  clusterId: string;
  dir: string;
  bootstrap: string;
  listeners: Record<string, string>;
  nodes: KafkaNode[];
  ssl?: { caPem: string; caPemFile: string; truststore: string; truststorePassword: string };
  users: Record<string, string>;
  startupMs: number;
  log(nodeId?: number): string;
  createTopic(name: string, options?: { partitions?: number; replicationFactor?: number; config?: Record<string, string | number> }): Promise<void>;
  stopNode(nodeId: number, options?: { kill?: boolean }): Promise<void>;
  startNode(nodeId: number): Promise<void>;
  stop(options?: { keepLogs?: boolean }): Promise<void>;
}
export interface StartOptions {
  nodes?: number;
  sasl?: { users: Record<string, string>; oauthbearer?: boolean };
  jvmArgs?: string[];
  ssl?: boolean;
  config?: Record<string, string>;
  heap?: string;
  /** The first node's PLAINTEXT port (default: a free one). */
  port?: number;
  /** Each node's broker.rack, in node order. */
  racks?: string[];
}
export interface JavaResult { code: number | null; signal: string | null; stdout: string; stderr: string; stdoutBytes: Buffer }

export const startKafka: (options?: StartOptions) => Promise<RealKafka> = cluster.startKafka;
export const kafkaJava: (mainClass: string, args?: string[], options?: { input?: string | Uint8Array; timeoutMs?: number; jvmArgs?: string[] }) => Promise<JavaResult> = cluster.kafkaJava;
export const launcherOptions: (args: string[]) => StartOptions = cluster.launcherOptions;
export const kafkaClasspath: () => Promise<string> = cluster.kafkaClasspath;
export const KAFKA_VERSION: string = cluster.KAFKA_VERSION;

let reason: string | null | undefined;

/** Whether real Kafka can run here; under the peer rule (fails in CI when it cannot). */
export async function kafkaPeer(): Promise<boolean> {
  reason ??= await cluster.kafkaAvailable();
  return peerAsync(`real Apache Kafka ${KAFKA_VERSION} (${reason ?? ''})`, async () => reason === null,
    'Java 17 and Maven: apt-get install openjdk-17-jdk-headless maven; npm run build');
}

/** Starts a cluster before the file's tests and stops it after them, keeping its logs on failure. */
export function useKafka(options: StartOptions = {}): () => RealKafka {
  let kafka: RealKafka | undefined;
  let failed = false;
  beforeAll(async () => {
    kafka = await startKafka(options);
    console.log(`[kafka] ${kafka.nodes.length} node(s) of Kafka ${kafka.version} ready in ${kafka.startupMs} ms at ${kafka.bootstrap}`);
  }, 240_000);
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') failed = true;
  });
  afterAll(async () => {
    await kafka?.stop({ keepLogs: failed });
  }, 120_000);
  return () => {
    if (!kafka) throw new Error('Kafka is not started (useKafka\'s beforeAll did not run)');
    return kafka;
  };
}

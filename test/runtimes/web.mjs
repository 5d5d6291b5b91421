// The smoke suite's entry for runtimes without node: modules (Chromium, Firefox, workerd), bundled
// by matrix.test.ts with esbuild under their package.json conditions ("browser", "workerd"):
// the shipped browser bundle (kafka-wire/browser), the capture reader, and kafka-wire/wire, whose
// network half must refuse with a typed error when used, not fail to import; and the admin, producer
// and consumer entries against real Kafka: a Worker over cloudflare:sockets (the connection's default
// there), a page through kafka-wire bridge (a WebSocket connector).
import * as browser from 'kafka-wire/browser';
import * as root from 'kafka-wire';
import * as capture from 'kafka-wire/capture';
import * as wire from 'kafka-wire/wire';
import * as admin from 'kafka-wire/admin';
import * as producer from 'kafka-wire/producer';
import * as consumer from 'kafka-wire/consumer';
import { runSmoke } from './smoke.mjs';

/**
 * Runs the suite against Node's golden output and a capture file's bytes; `modules` are the
 * precompiled codec and records modules where the host compiles no WebAssembly from bytes.
 * `kafka` is real Kafka's { bootstrap, topic, groupId, version }, with `bridge` (a kafka-wire
 * bridge's ws:// URL) for pages, which reach Kafka through it only.
 */
export async function run(golden, captureBytes, modules, kafka) {
  // kafka-wire/browser is a bundle of its own; the producer and consumer share kafka-wire's codec,
  // which a Worker hands the same precompiled modules.
  if (modules !== undefined) await Promise.all([browser.init(modules), root.init(modules)]);
  const target = kafka === undefined ? undefined : kafka.bridge === undefined
    ? { ...kafka, via: 'cloudflare:sockets' }
    : { ...kafka, via: 'kafka-wire bridge', bootstrap: 'bridge.invalid:9092', socket: wire.webSocketConnector({ url: kafka.bridge }) };
  return runSmoke({ root: browser, capture, wire, admin, producer, consumer }, { golden, capture: captureBytes, kafka: target });
}

/**
 * Where no WebAssembly compiles from bytes and nothing was precompiled: what the codec's first use
 * and initZstd() do (both must refuse, typed; zstd's own loader would otherwise wait forever).
 */
export async function firstUse() {
  const outcome = (error) => ({ name: error.name, code: error.code, message: error.message, typed: error instanceof browser.KafkaWireError });
  let codec;
  let zstd;
  try {
    codec = { decoded: browser.decodeRequest(browser.sampleFrame(18, 'request', 3)).header.requestApiKey };
  } catch (error) {
    codec = outcome(error);
  }
  try {
    await browser.initZstd();
    zstd = { engine: browser.zstdEngine() };
  } catch (error) {
    zstd = outcome(error);
  }
  return { codec, zstd };
}

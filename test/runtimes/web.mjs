// The smoke suite's entry for runtimes without node: modules (Chromium, Firefox, workerd), bundled
// by matrix.test.ts with esbuild under their package.json conditions ("browser", "workerd"):
// the shipped browser bundle (kafka-wire/browser), the capture reader, and kafka-wire/wire, whose
// network half must refuse with a typed error when used, not fail to import.
import * as browser from 'kafka-wire/browser';
import * as capture from 'kafka-wire/capture';
import * as wire from 'kafka-wire/wire';
import { runSmoke } from './smoke.mjs';

/**
 * Runs the suite against Node's golden output and a capture file's bytes; `modules` are the
 * precompiled codec and records modules where the host compiles no WebAssembly from bytes.
 */
export async function run(golden, captureBytes, modules) {
  if (modules !== undefined) await browser.init(modules);
  return runSmoke({ root: browser, capture, wire }, { golden, capture: captureBytes });
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

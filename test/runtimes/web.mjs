// The smoke suite's entry for runtimes without node: modules (Chromium, Firefox, workerd), bundled
// by matrix.test.ts with esbuild under their package.json conditions ("browser", "workerd"):
// the shipped browser bundle (kafka-wire/browser), the capture reader, and kafka-wire/wire, whose
// network half must refuse with a typed error when used, not fail to import.
import * as browser from 'kafka-wire/browser';
import * as capture from 'kafka-wire/capture';
import * as wire from 'kafka-wire/wire';
import { runSmoke } from './smoke.mjs';

/** Runs the suite against Node's golden output and a capture file's bytes. */
export function run(golden, captureBytes) {
  return runSmoke({ root: browser, capture, wire }, { golden, capture: captureBytes });
}

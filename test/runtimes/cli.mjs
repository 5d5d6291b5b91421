// The smoke suite's launcher for runtimes with a command line and node: modules (Node, Bun, Deno):
//   <runtime> test/runtimes/cli.mjs <capture.pcap> [golden.json] [kafka.json]
// (kafka.json: { bootstrap, topic, groupId, version } of real Kafka, for the produce and consume checks)
// imports the built entries as a user's code would, runs smoke.mjs, prints its result as JSON.
import { readFileSync } from 'node:fs';
import * as root from '../../dist/src/index.js';
import * as records from '../../dist/src/records/index.js';
import * as capture from '../../dist/src/capture/index.js';
import * as wire from '../../dist/src/wire/index.js';
import * as admin from '../../dist/src/admin/index.js';
import * as producer from '../../dist/src/producer/index.js';
import * as consumer from '../../dist/src/consumer/index.js';
import { runSmoke } from './smoke.mjs';

const [capturePath, goldenPath, kafkaPath] = process.argv.slice(2);
const golden = goldenPath === undefined ? undefined : JSON.parse(readFileSync(goldenPath, 'utf8'));
const kafka = kafkaPath === undefined ? undefined : { ...JSON.parse(readFileSync(kafkaPath, 'utf8')), via: 'TCP' };
const result = await runSmoke({ root: { ...root, ...records }, capture, wire, admin, producer, consumer }, { golden, kafka, capture: new Uint8Array(readFileSync(capturePath)) });
process.stdout.write(JSON.stringify(result));

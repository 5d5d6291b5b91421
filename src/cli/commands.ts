// The command table: every command of the CLI, in the order the help lists them. Adding a command
// is one module exporting a Command and one entry here.
import type { Command } from './command.js';
import { decode, encode } from './codec-commands.js';
import { demo, explain, sample, site } from './explain.js';
import { consume, metadata } from './network.js';
import { produce } from './produce-command.js';
import { pcap } from './pcap.js';
import { proxy } from './proxy.js';
import { broker } from './broker.js';
import { group } from './group-command.js';
import { perf } from './perf-command.js';

export const COMMANDS: readonly Command[] = [
  decode,
  encode,
  explain,
  sample,
  site,
  demo,
  metadata,
  produce,
  consume,
  group,
  perf,
  broker,
  pcap,
  proxy,
];

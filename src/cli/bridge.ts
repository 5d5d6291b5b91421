// `kafka-wire bridge --listen HOST:PORT -b BROKERS [--allow-origin ORIGIN]...`: Kafka over
// WebSockets for pages (src/wire/bridge.ts), running until interrupted.
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import type { Command, Io } from './command.js';
import { integerArg, stringOption, type ParsedArgs } from './options.js';
import { UsageError } from '../errors.js';
import { startBridge } from '../wire/bridge.js';
import { address } from './proxy.js';

export const bridge: Command = {
  name: 'bridge',
  summary: 'carry Kafka connections over WebSockets for pages, reaching only the cluster\'s brokers',
  synopsis: ['--listen HOST:PORT -b BROKERS [--allow-origin ORIGIN]... [--max-frame-size BYTES] [--tls [--ca FILE] [--insecure]]'],
  options: [
    { name: 'listen', value: 'HOST:PORT', help: 'where pages connect with a WebSocket (port 0: any free port)' },
    { name: 'brokers', short: 'b', value: 'BROKERS', help: 'the cluster\'s bootstrap brokers, HOST:PORT[,HOST:PORT...]' },
    { name: 'bootstrap-server', value: 'BROKERS', help: 'the same as -b (Kafka\'s tools\' name)' },
    { name: 'allow-origin', value: 'ORIGIN', multiple: true, help: 'a page Origin allowed to connect (repeat it; * allows any); other Origins are refused' },
    { name: 'max-frame-size', value: 'BYTES', help: 'the largest Kafka frame either way (default 104857600)' },
    { name: 'tls', help: 'speak TLS to the brokers' },
    { name: 'ca', value: 'FILE', help: 'the CA certificate for --tls' },
    { name: 'insecure', help: 'do not verify the brokers\' certificates' },
  ],
  notes: [
    'Each WebSocket carries one Kafka connection, one binary message per frame (size prefix included).',
    'ws://HOST:PORT/ reaches a bootstrap broker; the brokers the cluster names become KAFKA-N.bridge.invalid,',
    'reached as ws://HOST:PORT/?broker=NAME:PORT. Nothing else is reachable. The page\'s SASL passes through.',
    'Prints its URL on stderr; runs until interrupted (SIGINT/SIGTERM).',
  ],
  run: runBridge,
};

async function runBridge({ options, positionals }: ParsedArgs, io: Io): Promise<number> {
  if (positionals.length > 0) throw new UsageError('bridge takes no arguments');
  const listenText = stringOption(options, 'listen');
  if (listenText === undefined) throw new UsageError('--listen HOST:PORT is required');
  const brokers = stringOption(options, 'brokers') ?? stringOption(options, 'bootstrap-server');
  if (brokers === undefined) throw new UsageError('-b BROKERS is required');
  const bootstrap = brokers.split(',').filter((b) => b.trim() !== '').map((b) => address(b, '-b'));
  const origins = options['allow-origin'];
  const maxFrame = stringOption(options, 'max-frame-size');
  const ca = stringOption(options, 'ca');
  const running = await startBridge({
    listen: address(listenText, '--listen'),
    bootstrap,
    allowedOrigins: Array.isArray(origins) ? origins : typeof origins === 'string' ? [origins] : [],
    maxFrameSize: maxFrame === undefined ? undefined : integerArg(maxFrame, '--max-frame-size', 0, 0x7fffffff),
    tls: options.tls ? { ca: ca === undefined ? undefined : readFileSync(ca), rejectUnauthorized: !options.insecure } : undefined,
    onError: (error) => io.stderr.write(`kafka-wire bridge: ${error.message}\n`),
  });
  io.stderr.write(`kafka-wire bridge: ${running.url} -> ${brokers}\n`);
  if (io.signal !== undefined && !io.signal.aborted) await once(io.signal, 'abort');
  await running.close();
  return 0;
}

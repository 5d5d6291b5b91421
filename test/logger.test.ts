// The one logger (src/logger.ts): quiet unless asked, levels, a pluggable sink, secrets redacted
// before a sink sees them, and the connection, producer and consumer logging through their
// `logger` option, with the consumer's older `debug` callback still fed, against the memory broker.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, redact, redactText, type LogEntry } from '../src/logger.js';
import { connect, startMemoryBroker, type MemoryBroker } from '../src/wire/index.js';
import { createProducer } from '../src/producer/index.js';
import { Consumer } from '../src/consumer/index.js';

const PASSWORD = 'pa55-w0rd-never-logged';
const collect = () => {
  const entries: LogEntry[] = [];
  return { entries, logger: { level: 'debug' as const, sink: (e: LogEntry) => { entries.push(e); } } };
};

describe('the logger', () => {
  it('passes a level and the ones above it, to the sink, with its component and fields', () => {
    const { entries } = collect();
    const logger = createLogger({ level: 'warn', sink: (e) => entries.push(e) }, 'producer');
    logger.debug('d'); logger.info('i'); logger.warn('w', { topic: 't' }); logger.error('e');
    expect(entries.map((e) => [e.level, e.component, e.message])).toEqual([['warn', 'producer', 'w'], ['error', 'producer', 'e']]);
    expect(entries[0].fields).toEqual({ topic: 't' });
    expect(logger.enabled('info')).toBe(false);
    expect(logger.enabled('error')).toBe(true);
    const child = logger.child('connection', { broker: 'b:1' });
    child.error('x', { code: 'CLOSED' });
    expect(entries[2]).toMatchObject({ component: 'connection', fields: { broker: 'b:1', code: 'CLOSED' } });
  });

  it('is silent without options, and the console is its default sink with options', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      createLogger().error('nothing');
      expect(spy).not.toHaveBeenCalled();
      createLogger({}).info('to the console', { offset: 5n });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0][0]).toMatch(/^\d{4}-\d\d-\d\dT.* INFO kafka-wire kafka-wire: to the console \{"offset":"5"\}$/);
    } finally {
      spy.mockRestore();
    }
  });

  it('redacts secret-named fields at any depth, and secrets written into text', () => {
    expect(redact({ sasl: { mechanism: 'PLAIN', username: 'u', password: PASSWORD }, 'sasl.password': PASSWORD, clientSecret: PASSWORD,
      access_token: PASSWORD, list: [{ refreshToken: PASSWORD }], key: 'a record key stays' }))
      .toEqual({ sasl: { mechanism: 'PLAIN', username: 'u', password: '[redacted]' }, 'sasl.password': '[redacted]', clientSecret: '[redacted]',
        access_token: '[redacted]', list: [{ refreshToken: '[redacted]' }], key: 'a record key stays' });
    expect(redactText(`-X sasl.password=${PASSWORD} and {"client_secret":"${PASSWORD}"}, token: ${PASSWORD}`))
      .toBe('-X sasl.password=[redacted] and {"client_secret":"[redacted]"}, token: [redacted]');
    const { entries, logger } = collect();
    createLogger(logger).warn(`login with password=${PASSWORD} failed`, { error: new Error(`bad secret=${PASSWORD}`), options: { password: PASSWORD } });
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
  });

  it('survives a sink that throws', () => {
    expect(() => createLogger({ sink: () => { throw new Error('sink down'); } }).error('x')).not.toThrow();
  });
});

describe('the clients\' logger option', () => {
  let broker: MemoryBroker;
  let secured: MemoryBroker;
  beforeAll(async () => {
    broker = await startMemoryBroker({ topics: { orders: 2 } });
    secured = await startMemoryBroker({ topics: { orders: 1 }, sasl: { username: 'app', password: PASSWORD } });
  });
  afterAll(async () => {
    await broker?.close();
    await secured?.close();
  });

  it('keeps every client quiet by default', async () => {
    const spies = (['error', 'warn', 'info', 'log', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));
    try {
      const producer = await createProducer({ bootstrap: broker.bootstrap });
      await producer.send('orders', [{ value: 'quiet' }]);
      await producer.close();
      const consumer = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'orders' }], resetPolicy: 'earliest' });
      for await (const _batch of consumer) break;
      await consumer.close();
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('logs a connection\'s life, SASL included, without its password', async () => {
    const { entries, logger } = collect();
    const conn = await connect({ host: secured.host, port: secured.port, sasl: { mechanism: 'PLAIN', username: 'app', password: PASSWORD }, logger });
    await conn.close();
    await expect(connect({ host: secured.host, port: secured.port, sasl: { mechanism: 'PLAIN', username: 'app', password: `${PASSWORD}-wrong` }, logger }))
      .rejects.toThrow();
    const broker = `${secured.host}:${secured.port}`;
    expect(entries.filter((e) => e.component === 'connection').map((e) => e.message)).toContain('connected');
    expect(entries.find((e) => e.message === 'connected')!.fields).toEqual({ broker, tls: false, sasl: 'PLAIN' });
    expect(entries.some((e) => e.message.includes('closed by the client'))).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
  });

  it('logs the producer\'s work and its connections through one logger', async () => {
    const { entries, logger } = collect();
    const producer = await createProducer({ bootstrap: secured.bootstrap, sasl: { mechanism: 'PLAIN', username: 'app', password: PASSWORD }, logger });
    await producer.send('orders', [{ value: 'one' }]);
    await producer.close();
    expect(new Set(entries.map((e) => e.component))).toEqual(new Set(['producer', 'connection']));
    expect(entries.find((e) => e.component === 'producer' && e.message === 'closing')!.fields).toEqual({ recordsAcked: 1, recordsFailed: 0 });
    expect(JSON.stringify(entries)).not.toContain(PASSWORD);
  });

  it('routes the consumer\'s debug lines through the logger, and still to its debug callback', async () => {
    const { entries, logger } = collect();
    const lines: string[] = [];
    const consumer = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'orders' }], resetPolicy: 'earliest', logger, debug: (line) => lines.push(line) });
    for await (const _batch of consumer) break;
    await consumer.close();
    const debug = entries.filter((e) => e.component === 'consumer' && e.level === 'debug').map((e) => e.message);
    expect(debug.some((m) => /^orders\/\d: starting at 0 \(reset policy\)$/.test(m))).toBe(true);
    expect(lines).toEqual(debug);
    expect(entries.some((e) => e.component === 'connection')).toBe(true);

    // The callback alone, as before the logger: it gets the lines, and nothing reaches the console.
    const alone: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const quiet = new Consumer({ bootstrap: broker.bootstrap, assign: [{ topic: 'orders' }], resetPolicy: 'earliest', debug: (line) => alone.push(line) });
      for await (const _batch of quiet) break;
      await quiet.close();
      expect(alone.some((m) => m.includes('starting at 0'))).toBe(true);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

// What a producer test starts (memory brokers, producers, proxies), each closed after the test
// that started it, in reverse order.
import { afterEach } from 'vitest';
import { startMemoryBroker, type MemoryBroker, type MemoryBrokerOptions } from '../../src/wire/memory-broker.js';
import { createProducer, type Producer } from '../../src/producer/index.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c(); });

/** Closes `close` after this test. */
export function closeAfter(close: () => Promise<unknown>): void {
  cleanups.push(close);
}

/** A memory broker, closed after this test. */
export async function testBroker(options: MemoryBrokerOptions): Promise<MemoryBroker> {
  const b = await startMemoryBroker(options);
  closeAfter(() => b.close());
  return b;
}

/** A producer, closed (forced) after this test. */
export async function testProducer(options: Parameters<typeof createProducer>[0]): Promise<Producer> {
  const p = await createProducer(options);
  closeAfter(() => p.close({ force: true }));
  return p;
}

// The typed error a call throws, failing the test when it throws anything else or nothing.
import { expect } from 'vitest';
import { KafkaWireError } from '../../src/errors.js';

export function errorOf<E extends Error>(type: abstract new (...args: any[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name}`);
}

export function kafkaWireError(run: () => unknown): KafkaWireError {
  return errorOf(KafkaWireError, run);
}

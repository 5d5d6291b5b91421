// The KafkaWireError a call throws, failing the test when it throws anything else or nothing.
import { expect } from 'vitest';
import { KafkaWireError } from '../../src/errors.js';

export function kafkaWireError(run: () => unknown): KafkaWireError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(KafkaWireError);
    return error as KafkaWireError;
  }
  throw new Error('expected a KafkaWireError');
}

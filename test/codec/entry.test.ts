// kafka-wire/core is the per-definition API and nothing else: internals of the codec (scan, plans,
// frame peeks) stay out of it, and the main entry carries every name it has.
import { describe, expect, it } from 'vitest';
import * as core from '../../src/codec/by-definition.js';
import * as main from '../../src/index.js';

describe('kafka-wire/core', () => {
  it('exports the per-definition functions and defaults only', () => {
    expect(Object.keys(core).sort()).toEqual([
      'decodeBodyFor', 'decodeRequestFor', 'decodeResponseFor', 'defaultLimits', 'encodeBodyFor', 'encodeRequestFor',
      'encodeRequestPartsFor', 'encodeResponseFor', 'headerVersionFor', 'newMessageFor', 'prepareResponseFor', 'requestSizeFor', 'responseSizeFor',
    ]);
  });

  it('is part of the main entry, name for name', () => {
    for (const [name, value] of Object.entries(core)) expect([name, (main as Record<string, unknown>)[name]]).toEqual([name, value]);
  });
});

// The runtime-neutral emitter (src/wire/emitter.ts) the connection and consumers extend in place
// of node:events: each rule it keeps checked against Node's own EventEmitter doing the same.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Emitter } from '../../src/wire/emitter.js';

type Events = { a: [n: number]; error: [error: Error] };

/** Runs `script` on an emitter and returns what it logged; the same script runs on both. */
function trace(make: () => EventEmitter | Emitter<Events>, script: (e: any, log: string[]) => void): string[] {
  const log: string[] = [];
  script(make(), log);
  return log;
}
const both = (script: (e: any, log: string[]) => void) =>
  expect(trace(() => new Emitter<Events>(), script)).toEqual(trace(() => new EventEmitter(), script));

describe('Emitter, as node:events does it', () => {
  it('calls listeners in order, once listeners once, and off removes the last registration', () => {
    both((e, log) => {
      const f = (n: number) => log.push(`f${n}`);
      e.on('a', f); e.once('a', (n: number) => log.push(`once${n}`)); e.on('a', f);
      log.push(String(e.emit('a', 1))); e.emit('a', 2);
      e.off('a', f); e.emit('a', 3);
      log.push(String(e.listenerCount('a')));
      e.removeAllListeners('a'); log.push(String(e.emit('a', 4)), String(e.listenerCount('a')));
    });
  });

  it('an emit sees the listeners it began with, whatever its listeners add or remove', () => {
    both((e, log) => {
      const g = () => log.push('g');
      e.on('a', () => { log.push('first'); e.off('a', g); e.on('a', () => log.push('added')); });
      e.on('a', g);
      e.emit('a', 1); e.emit('a', 2);
    });
  });

  it('emit("error") with no listener throws the error; with one it is handed over', () => {
    both((e, log) => {
      try { e.emit('error', new Error('boom')); } catch (error) { log.push(`threw ${(error as Error).message}`); }
      e.on('error', (error: Error) => log.push(`got ${error.message}`));
      e.emit('error', new Error('bang'));
    });
  });

  it('on and once return the emitter, for chaining; listeners() lists them', () => {
    const e = new Emitter<Events>();
    const f = () => {};
    expect(e.on('a', f).once('a', f)).toBe(e);
    expect(e.listeners('a')).toEqual([f, f]);
  });
});

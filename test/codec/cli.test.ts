// The CLI's decode and encode, in-process through main(), and once through the built bin.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { encodeRequest, encodeResponse, newMessage } from '../../src/index.js';
import { toHex } from '../../src/text.js';
import { builtBin } from '../helpers/shared.js';
import { peer } from '../helpers/peer.js';

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, {
    stdin: Readable.from([stdin]),
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

const metadataRequest = encodeRequest(
  { requestApiKey: 3, requestApiVersion: 12, correlationId: 9, clientId: 'cli' },
  { topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', name: 'orders' }], allowAutoTopicCreation: false, includeTopicAuthorizedOperations: true },
);
const fetchResponse = encodeResponse(1, 4, { correlationId: 5 }, newMessage(1, 'response', 4, {
  responses: [{ topic: 't', partitions: [{ partitionIndex: 0, errorCode: 0, highWatermark: 2n ** 40n, lastStableOffset: -1n,
    abortedTransactions: null, records: Uint8Array.of(1, 2, 0xab) }] }],
}));

describe('kafka-wire decode/encode --jsonl', () => {
  it('decodes requests and responses, one line each, and carries on past bad lines', async () => {
    const lines = [
      { direction: 'request', hex: toHex(metadataRequest) },
      'not json',
      { direction: 'response', hex: toHex(fetchResponse), apiKey: 1, apiVersion: 4 },
      { direction: 'request', hex: toHex(metadataRequest).slice(0, -4) },
      { direction: 'response', hex: toHex(fetchResponse) },
    ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
    const { code, out } = await run(['decode', '--jsonl'], lines + '\n');
    expect(code).toBe(0);
    const results = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(results).toHaveLength(5);
    expect(results[0]).toEqual({
      ok: true,
      frame: {
        apiKey: 3, apiVersion: 12, direction: 'request',
        header: { requestApiKey: 3, requestApiVersion: 12, correlationId: 9, clientId: 'cli' },
        body: { topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', name: 'orders' }], allowAutoTopicCreation: false, includeTopicAuthorizedOperations: true },
      },
    });
    expect(results[1].ok).toBe(false);
    expect(results[1].error.name).toBe('SyntaxError');
    const partition = results[2].frame.body.responses[0].partitions[0];
    expect(partition.highWatermark).toBe('1099511627776');
    expect(partition.records).toBe('0102ab');
    expect(partition.abortedTransactions).toBeNull();
    expect(partition).not.toHaveProperty('logStartOffset'); // v5+ only
    expect(results[3]).toMatchObject({ ok: false, error: { name: 'KafkaWireError', path: expect.any(String), offset: expect.any(Number) } });
    expect(results[4].ok).toBe(false);
  });

  it('encodes frames back to the same bytes, with missing fields at their defaults', async () => {
    const { out: decoded } = await run(['decode', '--jsonl'], JSON.stringify({ direction: 'request', hex: toHex(metadataRequest) }) + '\n');
    const frame = JSON.parse(decoded).frame;
    const partial = { apiKey: 3, apiVersion: 12, direction: 'request', header: { correlationId: 9, clientId: 'cli' },
      body: { topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAQ', name: 'orders' }], allowAutoTopicCreation: false, includeTopicAuthorizedOperations: true } };
    const bad = { ...frame, body: { topics: [{ name: 7 }] } };
    const { out } = await run(['encode', '--jsonl'], [frame, partial, bad].map((f) => JSON.stringify(f)).join('\n'));
    const results = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(results[0]).toEqual({ ok: true, hex: toHex(metadataRequest) });
    expect(results[1]).toEqual({ ok: true, hex: toHex(metadataRequest) });
    expect(results[2]).toMatchObject({ ok: false, error: { name: 'KafkaWireError', path: 'MetadataRequest.topics[0].name' } });
  });

  it('round-trips float64 specials and unknown tagged fields through JSON', async () => {
    const frame = { apiKey: 49, apiVersion: 1, direction: 'request', header: { correlationId: 1, clientId: null },
      body: { entries: [{ entity: [], ops: [{ key: 'k', value: 'NaN', remove: false }, { key: 'k', value: '-Infinity', remove: true }] }],
        validateOnly: false, _unknownTaggedFields: { 7: 'beef' } } };
    const { out } = await run(['encode', '--jsonl'], JSON.stringify(frame));
    const { hex } = JSON.parse(out);
    const back = JSON.parse((await run(['decode', '--jsonl'], JSON.stringify({ direction: 'request', hex }))).out).frame;
    expect(back.body.entries[0].ops.map((o: any) => o.value)).toEqual(['NaN', '-Infinity']);
    expect(back.body._unknownTaggedFields).toEqual({ 7: 'beef' });
  });

  it('decodes one frame given on the command line', async () => {
    const { code, out } = await run(['decode', toHex(fetchResponse), '--response', '--api-key', '1', '--api-version', '4']);
    expect(code).toBe(0);
    expect(JSON.parse(out).header).toEqual({ correlationId: 5 });
    expect((await run(['decode', 'zz'])).code).toBe(1);
  });

  const bin = builtBin;
  it.skipIf(!peer(`the built CLI (${bin})`, existsSync(bin), 'npm run build'))('runs as the built bin', () => {
    const out = execFileSync(process.execPath, [bin, 'decode', '--jsonl'], {
      input: JSON.stringify({ direction: 'request', hex: toHex(metadataRequest) }) + '\n',
    }).toString();
    expect(JSON.parse(out).frame.header.clientId).toBe('cli');
  });
});

// Everything built on the built-in catalogue follows Kafka 4.3's schemas: the ApiKey names, the
// per-API modules, explain and samples of the new keys, and the connection's ApiVersions
// negotiation picking the new keys and versions a broker offers.
import { describe, expect, it } from 'vitest';
import { ApiKey, apis, decodeRequest, getApi } from '../../src/index.js';
import { streamsGroupHeartbeatApi } from '../../src/generated/apis/StreamsGroupHeartbeat.js';
import { streamsGroupDescribeApi } from '../../src/generated/apis/StreamsGroupDescribe.js';
import { explainFrame, sampleFrame } from '../../src/explain/index.js';
import { connect } from '../../src/wire/connection.js';
import { apiVersionsResponse, startServer } from '../../src/wire/server.js';
import { allSupportedVersions, apiName } from '../../src/wire/versions.js';

describe('the built-in catalogue\'s followers', () => {
  it('name, export and explain the Streams group keys', () => {
    expect(getApi(ApiKey.StreamsGroupHeartbeat)).toBe(streamsGroupHeartbeatApi);
    expect(getApi(ApiKey.StreamsGroupDescribe)).toBe(streamsGroupDescribeApi);
    for (const api of [streamsGroupHeartbeatApi, streamsGroupDescribeApi]) {
      expect(apiName(api.apiKey)).toBe(api.name);
      const frame = sampleFrame(api.apiKey, 'request', 0);
      expect(decodeRequest(frame).apiKey).toBe(api.apiKey);
      expect(explainFrame(frame, { direction: 'request' }).apiName).toBe(api.name);
    }
    expect([...allSupportedVersions().keys()]).toEqual(apis.map((a) => a.apiKey));
  });

  it('negotiate the keys and versions Kafka 4.3 added with a broker that offers them', async () => {
    const offered = [ApiKey.ApiVersions, ApiKey.StreamsGroupHeartbeat, ApiKey.ListOffsets, ApiKey.OffsetCommit];
    const server = await startServer({ handler: (req) => (req.apiKey === ApiKey.ApiVersions ? apiVersionsResponse(offered) : undefined) });
    try {
      const conn = await connect({ host: '127.0.0.1', port: server.port });
      try {
        for (const key of offered) expect(conn.versionFor(key)).toBe(getApi(key).request.validVersions[1]);
        expect(conn.versionFor(ApiKey.StreamsGroupHeartbeat)).toBe(0);
        expect(conn.apiVersions!.has(ApiKey.StreamsGroupDescribe)).toBe(false);
      } finally {
        await conn.close();
      }
    } finally {
      await server.close();
    }
  });
});

// Everything built on the built-in catalogue follows Kafka's schemas (4.3's Streams group keys,
// 4.4's StreamsGroupTopologyDescriptionUpdate and UnregisterController): the ApiKey names, the
// per-API modules, explain and samples of the new keys, and the connection's ApiVersions
// negotiation picking the new keys and versions a broker offers.
import { describe, expect, it } from 'vitest';
import { ApiKey, apis, decodeRequest, getApi } from '../../src/index.js';
import { streamsGroupHeartbeatApi } from '../../src/generated/apis/StreamsGroupHeartbeat.js';
import { streamsGroupDescribeApi } from '../../src/generated/apis/StreamsGroupDescribe.js';
import { streamsGroupTopologyDescriptionUpdateApi } from '../../src/generated/apis/StreamsGroupTopologyDescriptionUpdate.js';
import { unregisterControllerApi } from '../../src/generated/apis/UnregisterController.js';
import { explainFrame, sampleFrame } from '../../src/explain/index.js';
import { connect } from '../../src/wire/connection.js';
import { apiVersionsResponse, startServer } from '../../src/wire/server.js';
import { allSupportedVersions, apiName } from '../../src/wire/versions.js';

describe('the built-in catalogue\'s followers', () => {
  it('name, export and explain the keys Kafka 4.3 and 4.4 added, in every version', () => {
    expect(getApi(ApiKey.StreamsGroupHeartbeat)).toBe(streamsGroupHeartbeatApi);
    expect(getApi(ApiKey.StreamsGroupDescribe)).toBe(streamsGroupDescribeApi);
    expect(getApi(ApiKey.StreamsGroupTopologyDescriptionUpdate)).toBe(streamsGroupTopologyDescriptionUpdateApi);
    expect(getApi(ApiKey.UnregisterController)).toBe(unregisterControllerApi);
    for (const api of [streamsGroupHeartbeatApi, streamsGroupDescribeApi, streamsGroupTopologyDescriptionUpdateApi, unregisterControllerApi]) {
      expect(apiName(api.apiKey)).toBe(api.name);
      for (let v = api.request.validVersions[0]; v <= api.request.validVersions[1]; v++) {
        const frame = sampleFrame(api.apiKey, 'request', v);
        expect(decodeRequest(frame)).toMatchObject({ apiKey: api.apiKey, apiVersion: v });
        expect(explainFrame(frame, { direction: 'request' }).apiName).toBe(api.name);
      }
    }
    expect([...allSupportedVersions().keys()]).toEqual(apis.map((a) => a.apiKey));
  });

  it('negotiate the keys and versions Kafka 4.3 and 4.4 added with a broker that offers them', async () => {
    const offered = [ApiKey.ApiVersions, ApiKey.StreamsGroupHeartbeat, ApiKey.ListOffsets, ApiKey.OffsetCommit,
      ApiKey.StreamsGroupTopologyDescriptionUpdate, ApiKey.TxnOffsetCommit, ApiKey.DeleteGroups];
    const server = await startServer({ handler: (req) => (req.apiKey === ApiKey.ApiVersions ? apiVersionsResponse(offered) : undefined) });
    try {
      const conn = await connect({ host: '127.0.0.1', port: server.port });
      try {
        for (const key of offered) expect(conn.versionFor(key)).toBe(getApi(key).request.validVersions[1]);
        // Kafka 4.4's versions: StreamsGroupHeartbeat v1, TxnOffsetCommit v6 (topic ids), DeleteGroups v3.
        expect(conn.versionFor(ApiKey.StreamsGroupHeartbeat)).toBeGreaterThanOrEqual(1);
        expect(conn.versionFor(ApiKey.TxnOffsetCommit)).toBeGreaterThanOrEqual(6);
        expect(conn.versionFor(ApiKey.DeleteGroups)).toBeGreaterThanOrEqual(3);
        expect(conn.apiVersions!.has(ApiKey.StreamsGroupDescribe)).toBe(false);
      } finally {
        await conn.close();
      }
    } finally {
      await server.close();
    }
  });
});

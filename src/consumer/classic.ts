// The classic group protocol's requests, one function each: FindCoordinator, JoinGroup,
// SyncGroup, Heartbeat, LeaveGroup. They send and read; deciding what an error means for the
// member is group.ts's job, so each returns the broker's error code rather than throwing on it.

import { connect, type Connection, type ConnectOptions } from '../wire/connection.js';
import type { KafkaClient } from '../wire/client.js';
import { kafkaErrorName } from '../wire/errors.js';
import { ApiKey } from '../generated/types.js';
import { ConsumerError, GroupErrorCode } from './errors.js';
import { CONSUMER_PROTOCOL_TYPE } from './protocol.js';

/** FindCoordinator key types. */
export const COORDINATOR_GROUP = 0;
export const COORDINATOR_TRANSACTION = 1;

export class CoordinatorUnavailable extends Error {
  constructor(readonly groupId: string, readonly errorCode: number, detail = '') {
    super(`group ${groupId}: no coordinator (${kafkaErrorName(errorCode)})${detail ? `: ${detail}` : ''}`);
  }
}

/**
 * Finds the group's coordinator and opens a connection of its own to it (so heartbeats never
 * queue behind a long Fetch). Throws CoordinatorUnavailable while the broker says to retry.
 */
export async function findCoordinator(client: KafkaClient, groupId: string): Promise<Connection> {
  const found = await client.findCoordinator(COORDINATOR_GROUP, groupId, (message) => new ConsumerError('GROUP', message));
  if (found.errorCode === GroupErrorCode.GROUP_AUTHORIZATION_FAILED) {
    throw new ConsumerError('GROUP', `group ${groupId}: ${kafkaErrorName(found.errorCode)}`, { errorCode: found.errorCode });
  }
  if (found.errorCode !== 0) throw new CoordinatorUnavailable(groupId, found.errorCode, found.errorMessage ?? '');
  const options: ConnectOptions = { ...client.options, host: found.host, port: found.port };
  return connect(options);
}

/**
 * One member's connection to its group coordinator, for either protocol: found once, found again
 * after it closes, and dropped (closed) when a request says the coordinator moved.
 */
export class CoordinatorConnection {
  #current: Promise<Connection> | null = null;
  constructor(private readonly client: KafkaClient, private readonly groupId: string) {}

  get(): Promise<Connection> {
    const current = this.#current;
    if (current) {
      return current.then((c) => {
        if (!c.closed) return c;
        if (this.#current === current) this.#current = null;
        return this.get();
      });
    }
    const found = findCoordinator(this.client, this.groupId);
    this.#current = found;
    found.catch(() => { if (this.#current === found) this.#current = null; });
    return found;
  }

  /** The coordinator moved or failed: close this connection; the next get() finds it again. */
  failed(): void {
    const old = this.#current;
    this.#current = null;
    old?.then((c) => c.close()).catch(() => {});
  }
}

export interface JoinRequest {
  groupId: string;
  memberId: string;
  groupInstanceId: string | null;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** Protocol name -> subscription bytes, in preference order. */
  protocols: { name: string; metadata: Uint8Array }[];
  reason?: string;
}

export interface JoinResult {
  errorCode: number;
  generationId: number;
  protocolName: string | null;
  leader: string;
  memberId: string;
  members: { memberId: string; groupInstanceId: string | null; metadata: Uint8Array }[];
}

export async function joinGroup(conn: Connection, req: JoinRequest): Promise<JoinResult> {
  const version = conn.versionFor(ApiKey.JoinGroup);
  if (version === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks JoinGroup`);
  const res = await conn.request(ApiKey.JoinGroup, version, {
    groupId: req.groupId,
    sessionTimeoutMs: req.sessionTimeoutMs,
    rebalanceTimeoutMs: req.rebalanceTimeoutMs,
    memberId: req.memberId,
    ...(version >= 5 ? { groupInstanceId: req.groupInstanceId } : {}),
    protocolType: CONSUMER_PROTOCOL_TYPE,
    protocols: req.protocols,
    ...(version >= 8 ? { reason: req.reason ?? null } : {}),
    // The coordinator holds JoinGroup until the group has formed: up to the rebalance timeout.
  }, { timeoutMs: req.rebalanceTimeoutMs + 10_000 });
  return {
    errorCode: res.errorCode, generationId: res.generationId, protocolName: res.protocolName,
    leader: res.leader, memberId: res.memberId, members: res.members,
  };
}

export interface SyncRequest {
  groupId: string;
  generationId: number;
  memberId: string;
  groupInstanceId: string | null;
  protocolName: string;
  /** Only the leader sends assignments. */
  assignments: { memberId: string; assignment: Uint8Array }[];
}

export async function syncGroup(conn: Connection, req: SyncRequest, timeoutMs: number): Promise<{ errorCode: number; assignment: Uint8Array }> {
  const version = conn.versionFor(ApiKey.SyncGroup);
  if (version === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks SyncGroup`);
  const res = await conn.request(ApiKey.SyncGroup, version, {
    groupId: req.groupId,
    generationId: req.generationId,
    memberId: req.memberId,
    ...(version >= 3 ? { groupInstanceId: req.groupInstanceId } : {}),
    ...(version >= 5 ? { protocolType: CONSUMER_PROTOCOL_TYPE, protocolName: req.protocolName } : {}),
    assignments: req.assignments,
  }, { timeoutMs });
  return { errorCode: res.errorCode, assignment: res.assignment };
}

export async function heartbeat(conn: Connection, groupId: string, generationId: number, memberId: string, groupInstanceId: string | null): Promise<number> {
  const version = conn.versionFor(ApiKey.Heartbeat);
  if (version === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks Heartbeat`);
  const res = await conn.request(ApiKey.Heartbeat, version, {
    groupId, generationId, memberId, ...(version >= 3 ? { groupInstanceId } : {}),
  });
  return res.errorCode;
}

export async function leaveGroup(conn: Connection, groupId: string, memberId: string, groupInstanceId: string | null, reason: string): Promise<number> {
  const version = conn.versionFor(ApiKey.LeaveGroup);
  if (version === undefined) throw new ConsumerError('GROUP', `broker ${conn.host}:${conn.port} lacks LeaveGroup`);
  const res = await conn.request(ApiKey.LeaveGroup, version, version >= 3
    ? { groupId, members: [{ memberId, groupInstanceId, ...(version >= 5 ? { reason } : {}) }] }
    : { groupId, memberId });
  return res.errorCode || (res.members?.[0]?.errorCode ?? 0);
}

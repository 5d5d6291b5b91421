// `kafka-wire group list|describe --table`: the tables kafka-consumer-groups.sh prints, from the
// admin client's group listing and description (group.ts prints JSON without --table).
import type { GroupDescription, GroupListing } from '../admin/index.js';
import { table } from './admin-common.js';

/** --list with --state/--type: one row per group. */
export function groupListTable(groups: readonly GroupListing[]): string {
  return table(['GROUP', 'TYPE', 'STATE', 'PROTOCOL-TYPE'], groups.map((g) => [g.groupId, g.type ?? '-', g.state ?? '-', g.protocolType || '-']));
}

/** --describe: each partition's offsets and lag, with the member consuming it. */
export function groupDescribeTable(g: GroupDescription): string {
  if (g.offsets.length === 0 && g.members.length === 0) return `\nConsumer group '${g.groupId}' has no active members.\n`;
  const member = (id: string | null) => g.members.find((m) => m.memberId === id);
  const rows = g.offsets.map((o) => {
    const m = member(o.memberId);
    return [g.groupId, o.topic, String(o.partition), o.committed === null ? '-' : String(o.committed), String(o.logEnd), o.lag === null ? '-' : String(o.lag), m?.memberId ?? '-', m?.host ?? '-', m?.clientId ?? '-'];
  });
  const head = g.members.length === 0 ? `\nConsumer group '${g.groupId}' has no active members.\n` : '';
  return `${head}\n${table(['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'CONSUMER-ID', 'HOST', 'CLIENT-ID'], rows)}`;
}

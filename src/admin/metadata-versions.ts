// metadata.version's release names, as kafka-features.sh describe prints its levels ("4.4-IV2"
// for level 33): facts taken from Kafka 4.4's MetadataVersion enum (kafka-server-common 4.4.0),
// which test/admin/admin-kafka.test.ts compares with the enum in the jar and with the tool's output.
// Kafka 4 has no level below 7 (3.3-IV3); a level this table lacks is printed as its number.

/** metadata.version's feature levels and their release names, lowest first (Kafka 4.4.0's MetadataVersion). */
export const METADATA_VERSIONS: readonly (readonly [level: number, name: string])[] = [
  [7, '3.3-IV3'], [8, '3.4-IV0'], [9, '3.5-IV0'], [10, '3.5-IV1'], [11, '3.5-IV2'], [12, '3.6-IV0'], [13, '3.6-IV1'], [14, '3.6-IV2'],
  [15, '3.7-IV0'], [16, '3.7-IV1'], [17, '3.7-IV2'], [18, '3.7-IV3'], [19, '3.7-IV4'], [20, '3.8-IV0'], [21, '3.9-IV0'],
  [22, '4.0-IV0'], [23, '4.0-IV1'], [24, '4.0-IV2'], [25, '4.0-IV3'], [26, '4.1-IV0'], [27, '4.1-IV1'], [28, '4.2-IV0'], [29, '4.2-IV1'],
  [30, '4.3-IV0'], [31, '4.4-IV0'], [32, '4.4-IV1'], [33, '4.4-IV2'], [34, '4.5-IV0'],
];

const BY_LEVEL = new Map(METADATA_VERSIONS);

/** metadata.version's release name for a feature level ("4.4-IV2" for 33), or undefined for one Kafka 4.4 does not know. */
export function metadataVersionName(level: number): string | undefined {
  return BY_LEVEL.get(level);
}

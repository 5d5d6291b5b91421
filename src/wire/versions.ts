// What this library can speak, per API key, taken from the generated catalogue.

import { apis } from '../generated/catalogue.js';
import { findApi } from '../codec/by-key.js';

export interface VersionRange { readonly min: number; readonly max: number }

const ours = new Map<number, VersionRange>();
for (const api of apis) ours.set(api.apiKey, { min: api.request.validVersions[0], max: api.request.validVersions[1] });

/** The request versions this library can encode for `apiKey`, or undefined for an unknown key. */
export function supportedVersions(apiKey: number): VersionRange | undefined {
  return ours.get(apiKey);
}

/** Every API key this library knows, with its version range, sorted by key. */
export function allSupportedVersions(): ReadonlyMap<number, VersionRange> {
  return ours;
}

/** The API's name ("Metadata") or `ApiKey(<n>)` when unknown. */
export function apiName(apiKey: number): string {
  return findApi(apiKey)?.name ?? `ApiKey(${apiKey})`;
}

/**
 * The highest version both sides support, or undefined when the ranges do not overlap (or
 * either side does not know the key).
 */
export function usableVersion(apiKey: number, theirs: VersionRange | undefined): number | undefined {
  const mine = ours.get(apiKey);
  if (!mine || !theirs) return undefined;
  const lo = Math.max(mine.min, theirs.min);
  const hi = Math.min(mine.max, theirs.max);
  return lo <= hi ? hi : undefined;
}

/** The all-zero UUID, Kafka's "no topic id", in the codec's 22-character base64url form. */
export { ZERO_UUID } from '../codec/by-key.js';

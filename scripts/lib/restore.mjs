// Merging two of Kafka's message schemas (parsed JSON, comments gone) by version: the result
// describes versions `olderVersions` exactly as `older` does and `newerVersions` exactly as
// `newer` does. How the schema pipeline (scripts/schemas.mjs) puts back the versions Kafka has
// removed from a release's files (KIP-896, KIP-932's early-access v0, keys 4-7), and how it
// leaves out a release's latestVersionUnstable version (merging with no older versions at all).
//
// Every version-valued attribute (versions, nullableVersions, taggedVersions, flexibleVersions)
// becomes a set of message versions: what one side says, restricted to the versions taken from
// it, united with the other side's. Fields are matched by name in an order both sides keep; a
// fact that no Kafka-format range can express (a gap, a changed type or default) is an error
// naming the field, never a silent choice.

/** [min, max] of a version spec ("3", "3+", "0-2", "none" -> null), max MAX for an open range. */
export function parseSpec(spec, MAX, where) {
  const s = String(spec).trim();
  let m;
  if (s === 'none') return null;
  if ((m = /^(\d+)$/.exec(s))) return [+m[1], +m[1]];
  if ((m = /^(\d+)\+$/.exec(s))) return [+m[1], MAX];
  if ((m = /^(\d+)\s*-\s*(\d+)$/.exec(s))) return [+m[1], +m[2]];
  throw new Error(`${where}: bad version spec ${JSON.stringify(spec)}`);
}

const MAX = 0x7fff;

const range = (spec, where) => (spec === undefined ? null : parseSpec(spec, MAX, where));
const isOpen = (spec, where) => spec !== undefined && range(spec, where)?.[1] === MAX;
/** The versions of `within` (a sorted array) that `spec` covers. */
const clip = (spec, within, where) => {
  const r = range(spec, where);
  return r === null ? [] : within.filter((v) => v >= r[0] && v <= r[1]);
};
const union = (a, b) => [...new Set([...a, ...b])].sort((x, y) => x - y);

/**
 * A sorted set of versions as a spec: a side's own spec when it says the same within the versions
 * `within` that matter (so unchanged ranges read as Kafka wrote them), else the set itself.
 */
function specFor(set, within, candidates, open, where) {
  for (const c of candidates) {
    if (c !== undefined && clip(c, within, where).join() === set.join()) return String(c);
  }
  return specOf(set, open, where);
}

/** A sorted set of versions as a spec; `open` writes "N+" (the set reaches the top). */
function specOf(set, open, where) {
  if (set.length === 0) return 'none';
  const lo = set[0], hi = set[set.length - 1];
  if (hi - lo + 1 !== set.length) throw new Error(`${where}: versions ${set.join(',')} are not one range`);
  if (open) return `${lo}+`;
  return lo === hi ? `${lo}` : `${lo}-${hi}`;
}

/** Every version from the spec's min to its max (for a message's validVersions). */
export function versionList(spec, where) {
  const r = range(spec, where);
  if (r === null) return [];
  if (r[1] === MAX) throw new Error(`${where}: validVersions must be closed`);
  return Array.from({ length: r[1] - r[0] + 1 }, (_, i) => r[0] + i);
}

/** Longest common subsequence of two name lists, as index pairs. */
function matchByName(a, b) {
  const n = a.length, m = b.length;
  const dp = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i][j] = a[i].name === b[j].name ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
    }
  }
  const pairs = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[i].name === b[j].name) pairs.push([i++, j++]);
    else if (dp[i + 1][j] >= dp[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

/**
 * The merge of `older` (for `olderVersions`) and `newer` (for `newerVersions`); either schema may
 * be null when it contributes no versions. Both version lists are sorted; every older version is
 * below every newer one.
 */
export function mergeSchemas(older, newer, olderVersions, newerVersions, name) {
  const all = union(olderVersions, newerVersions);
  if (all.length === 0) throw new Error(`${name}: no versions left`);
  const top = all[all.length - 1];
  // The side whose versions include the top decides whether a range stays open ("N+").
  const topSide = newerVersions.length > 0 ? 'b' : 'a';
  const base = topSide === 'b' ? newer : older;
  const ctx = {
    name, top, topSide,
    flexA: older ? clip(older.flexibleVersions, olderVersions, `${name} flexibleVersions`) : [],
    flexB: newer ? clip(newer.flexibleVersions, newerVersions, `${name} flexibleVersions`) : [],
    flexOpen: isOpen(base.flexibleVersions, name),
  };

  const out = { ...base };
  out.validVersions = specOf(all, false, `${name} validVersions`);
  const flexible = union(ctx.flexA, ctx.flexB);
  out.flexibleVersions = specFor(flexible, all, [newer?.flexibleVersions, older?.flexibleVersions], ctx.flexOpen && flexible.includes(top), `${name} flexibleVersions`);
  const deprecated = union(
    older ? clip(older.deprecatedVersions, olderVersions, name) : [],
    newer ? clip(newer.deprecatedVersions, all, name) : [],
  );
  if (deprecated.length > 0) out.deprecatedVersions = specFor(deprecated, all, [newer?.deprecatedVersions], false, `${name} deprecatedVersions`);
  else delete out.deprecatedVersions;
  delete out.latestVersionUnstable;
  const headerVersions = mergeHeaderVersions(older, newer, olderVersions, newerVersions, ctx);
  if (headerVersions !== undefined) out.headerVersions = headerVersions;

  out.fields = mergeFields(older?.fields ?? [], newer?.fields ?? [], olderVersions, newerVersions, ctx, name);
  const commonA = older?.commonStructs ?? [];
  const commonB = newer?.commonStructs ?? [];
  if (commonA.length + commonB.length > 0) {
    const byName = new Map(commonA.map((s) => [s.name, s]));
    const merged = commonB.map((s) => ({
      ...s,
      fields: mergeFields(byName.get(s.name)?.fields ?? [], s.fields, olderVersions, newerVersions, ctx, `${name}#${s.name}`),
    }));
    for (const s of commonA) {
      if (!commonB.some((t) => t.name === s.name)) {
        merged.push({ ...s, fields: mergeFields(s.fields, [], olderVersions, [], ctx, `${name}#${s.name}`) });
      }
    }
    out.commonStructs = merged;
  }
  return out;
}

/** Each field with the versions (of `versions`) it is in. */
function withVersions(fields, versions, where) {
  return fields.map((f) => ({ name: f.name, f, act: clip(f.versions, versions, `${where}.${f.name} versions`) }));
}

function mergeFields(fieldsA, fieldsB, versionsA, versionsB, ctx, where) {
  // Matched over the whole files, so a field each side has keeps its place even where one side
  // has it in none of the versions taken from it.
  const a = withVersions(fieldsA, versionsA, where);
  const b = withVersions(fieldsB, versionsB, where);
  const out = [];
  const emit = (x, y) => {
    const inA = x !== null && x.act.length > 0 ? x : null;
    const inB = y !== null && y.act.length > 0 ? y : null;
    if (inA === null && inB === null) return;
    const name = (x ?? y).name;
    const field = mergeField(inA?.f ?? null, inB?.f ?? null, inA?.act ?? [], inB?.act ?? [], union(versionsA, versionsB), ctx, `${where}.${name}`);
    // "ignorable" matters only in versions without the field (a value there is dropped, not an
    // error): a side's flag counts when its file has the field and versions without it; when no
    // side's does, the newer file that has the field decides.
    const flag = (f) => f?.ignorable === true || f?.ignorable === 'true';
    const countsA = x !== null && x.act.length < versionsA.length;
    const countsB = y !== null && y.act.length < versionsB.length;
    const ignorable = countsA || countsB ? (countsA && flag(x.f)) || (countsB && flag(y.f)) : flag((y ?? x).f);
    if (ignorable) field.ignorable = true;
    else delete field.ignorable;
    out.push(field);
  };
  let i = 0, j = 0;
  for (const [pi, pj] of matchByName(a, b)) {
    while (i < pi) emit(a[i++], null);
    while (j < pj) emit(null, b[j++]);
    emit(a[i++], b[j++]);
  }
  while (i < a.length) emit(a[i++], null);
  while (j < b.length) emit(null, b[j++]);
  const names = new Set();
  for (const f of out) {
    if (names.has(f.name)) throw new Error(`${where}.${f.name}: the two releases order this field differently`);
    names.add(f.name);
  }
  return out;
}

/** A default as a comparable string: numbers in any base, booleans and strings as they read. */
function defaultKey(field) {
  if (field.default === undefined) return undefined;
  const s = String(field.default).trim();
  if (/^-?(0[xX][0-9a-fA-F]+|\d+)$/.test(s) && field.type !== 'string') {
    const neg = s.startsWith('-');
    const v = BigInt(neg ? s.slice(1) : s);
    return String(neg ? -v : v);
  }
  return s;
}

function mergeField(fa, fb, actA, actB, parentVersions, ctx, where) {
  if (fa && fb && fa.type !== fb.type) throw new Error(`${where}: type ${fa.type} became ${fb.type}`);
  if (fa && fb && defaultKey(fa) !== defaultKey(fb)) {
    throw new Error(`${where}: default ${JSON.stringify(fa.default)} became ${JSON.stringify(fb.default)}`);
  }
  const top = ctx.topSide === 'b' ? fb : fa;
  const acts = union(actA, actB);
  const out = { ...(fa ?? {}), ...(fb ?? {}) };
  // Each attribute's versions: the older side's within its versions, the newer side's within its.
  const setOf = (attr, fallbackA = [], fallbackB = []) => union(
    fa ? (fa[attr] === undefined ? fallbackA : clip(fa[attr], actA, `${where} ${attr}`)) : [],
    fb ? (fb[attr] === undefined ? fallbackB : clip(fb[attr], actB, `${where} ${attr}`)) : [],
  );
  const openAt = (set, spec) => set.includes(ctx.top) && isOpen(spec, where);
  const candidates = (attr) => [fb?.[attr], fa?.[attr]];
  out.versions = specFor(acts, parentVersions, candidates('versions'), openAt(acts, top?.versions), `${where} versions`);
  for (const attr of ['nullableVersions', 'taggedVersions']) {
    if (fa?.[attr] === undefined && fb?.[attr] === undefined) continue;
    const set = setOf(attr);
    if (set.length === 0) delete out[attr];
    else out[attr] = specFor(set, acts, candidates(attr), openAt(set, top?.[attr]), `${where} ${attr}`);
  }
  if (out.taggedVersions === undefined) delete out.tag;
  else {
    const tagA = fa && fa.taggedVersions !== undefined && clip(fa.taggedVersions, actA, where).length > 0 ? String(fa.tag) : undefined;
    const tagB = fb && fb.taggedVersions !== undefined && clip(fb.taggedVersions, actB, where).length > 0 ? String(fb.tag) : undefined;
    if (tagA !== undefined && tagB !== undefined && tagA !== tagB) throw new Error(`${where}: tag ${tagA} became ${tagB}`);
    out.tag = (tagB !== undefined ? fb : fa).tag;
  }
  // A field's own flexibleVersions overrides the message's; where a side has none, the message's holds.
  if (fa?.flexibleVersions !== undefined || fb?.flexibleVersions !== undefined) {
    const set = setOf('flexibleVersions', actA.filter((v) => ctx.flexA.includes(v)), actB.filter((v) => ctx.flexB.includes(v)));
    out.flexibleVersions = specFor(set, acts, candidates('flexibleVersions'), set.length > 0 && openAt(set, top?.flexibleVersions ?? (ctx.flexOpen ? '0+' : undefined)), `${where} flexibleVersions`);
  }
  if (fa?.fields !== undefined || fb?.fields !== undefined) {
    out.fields = mergeFields(fa?.fields ?? [], fb?.fields ?? [], actA, actB, ctx, where);
  }
  return out;
}

/**
 * KIP-1313's "headerVersions" ({"0-1": "1", "2+": "2"}) over the merged versions, when either side
 * declares it: each side's map within its versions, the built-in rule where a side has none.
 */
function mergeHeaderVersions(older, newer, olderVersions, newerVersions, ctx) {
  if (older?.headerVersions === undefined && newer?.headerVersions === undefined) return undefined;
  const perVersion = new Map();
  const fill = (schema, versions, flexible) => {
    for (const v of versions) perVersion.set(v, headerVersionOf(schema, v, flexible.includes(v), ctx.name));
  };
  if (older) fill(older, olderVersions, ctx.flexA);
  if (newer) fill(newer, newerVersions, ctx.flexB);
  // Runs of equal header versions, the first from 0 and the last open, as Kafka writes them.
  const versions = [...perVersion.keys()].sort((x, y) => x - y);
  const runs = [];
  for (const v of versions) {
    const h = perVersion.get(v);
    if (runs.length > 0 && runs[runs.length - 1].h === h) runs[runs.length - 1].hi = v;
    else runs.push({ lo: runs.length === 0 ? 0 : v, hi: v, h });
  }
  const map = {};
  runs.forEach((r, i) => {
    map[i === runs.length - 1 ? `${r.lo}+` : r.lo === r.hi ? `${r.lo}` : `${r.lo}-${r.hi}`] = String(r.h);
  });
  return map;
}

/** The header version of `schema` at `version`: its headerVersions map, else Kafka's built-in rule. */
function headerVersionOf(schema, version, flexible, where) {
  if (schema.headerVersions !== undefined) {
    for (const [spec, h] of Object.entries(schema.headerVersions)) {
      const r = parseSpec(spec, MAX, `${where} headerVersions`);
      if (r !== null && version >= r[0] && version <= r[1]) return Number(h);
    }
    throw new Error(`${where}: headerVersions has no entry for v${version}`);
  }
  if (schema.type === 'request') return flexible ? 2 : 1;
  if (schema.apiKey === 18) return 0; // ApiVersionsResponse: always header v0 (KIP-511)
  return flexible ? 1 : 0;
}

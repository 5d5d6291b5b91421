// Aggregation (medians over rounds, ratios, goals) and the text / markdown tables.
import { WORKLOADS, WORKLOAD_TITLES, FETCH_CASES, PEERS, KEPT_RESULTS } from './tasks.mjs';

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

const CASE_TITLES = { ...FETCH_CASES, decode: 'decode', encode: 'encode', stream: '', '1MiB': '', none_produce: '' };

/** The q-quantile of xs (linear interpolation between order statistics). */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
}

/** Summary of per-pair ratios: median, quartiles, range, and the pairs themselves. */
export function ratioStats(pairs) {
  return { median: median(pairs), q1: quantile(pairs, 0.25), q3: quantile(pairs, 0.75), min: Math.min(...pairs), max: Math.max(...pairs), pairs };
}

/** Per-round ratios a[i] / b[i] over the rounds both rows ran (the rounds are the pairs). */
export function pairRatios(a, b) {
  const out = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) out.push(a[i] / b[i]);
  return out;
}

/**
 * Fills per-row statistics and ratios; returns the rows grouped as [workload, case, rows]. A row's
 * ratio is paired: in every round each row of a group ran in its own fresh process next to the
 * others, so round i of the fastest peer (same mode, lowest median time) divided by round i of
 * this row is one pair; the row reports the median of those ratios with its quartiles.
 */
export function aggregate(rows) {
  for (const r of rows) {
    if (r.na || !r.roundsMs?.length) continue;
    r.medianMs = median(r.roundsMs);
    r.spreadPct = r.roundsMs.length > 1 ? (100 * (quantile(r.roundsMs, 0.75) - quantile(r.roundsMs, 0.25))) / r.medianMs : undefined;
    r.nsPerUnit = (r.medianMs * 1e6) / r.units;
    r.mbPerSec = r.bytes / (r.medianMs / 1000) / 1e6;
    if (r.alloc) {
      r.allocBytesPerUnit = r.alloc.bytes / r.units;
      r.allocObjectsPerUnit = r.alloc.objects / r.units;
    }
    if (r.mixedMs?.length) {
      r.mixedMedianMs = median(r.mixedMs);
      r.mixedRatio = r.mixedMedianMs / r.medianMs;
    }
  }
  const groups = [];
  for (const w of WORKLOADS) {
    const cases = [...new Set(rows.filter((r) => r.workload === w).map((r) => r.case))];
    for (const c of cases) {
      const g = rows.filter((r) => r.workload === w && r.case === c);
      for (const r of g) {
        if (r.medianMs === undefined || !['eager', 'kept'].includes(r.mode) || r.twinOf !== undefined) continue;
        const peers = g.filter((p) => PEERS.includes(p.contender) && p.mode === r.mode && p.medianMs !== undefined);
        const fastest = peers.sort((a, b) => a.medianMs - b.medianMs)[0];
        if (!fastest) continue;
        r.fastestPeer = fastest.id;
        r.fastestPeerLabel = fastest.label;
        r.ratio = ratioStats(pairRatios(fastest.roundsMs, r.roundsMs));
      }
      // A baseline twin's time over this build's, pair by pair (above 1: this build is faster).
      for (const twin of g.filter((x) => x.twinOf !== undefined && x.medianMs !== undefined)) {
        const r = g.find((x) => x.id === twin.twinOf);
        if (r?.medianMs === undefined) continue;
        r.vsBaseline = ratioStats(pairRatios(twin.roundsMs, r.roundsMs));
        r.baselineMs = twin.medianMs;
      }
      groups.push([w, c, g.filter((x) => x.twinOf === undefined)]);
    }
  }
  return groups;
}

/** The issue's speed goals, each against the row it names; `holds` is true, false or null (n/a). */
export function goals(rows, extra = []) {
  const byId = (id) => rows.find((r) => r.id === id);
  const out = [];
  // The kafka-wire row of the fastest peer's version (each peer decodes its own version).
  const ours = (prefix, mode) => {
    const cands = rows.filter((r) => r.id.startsWith(prefix) && r.contender === 'kafka-wire' && r.mode === mode && r.ratio);
    const f = cands[0] && byId(cands[0].fastestPeer);
    return (f && cands.find((r) => r.version === f.version)) ?? cands[0];
  };
  const vsPeer = (name, target, row, minShare) => {
    if (!row) return;
    const { median: m, q1, q3, pairs } = row.ratio;
    let holds = m >= target;
    let display = `${m.toFixed(2)}x [${q1.toFixed(2)}-${q3.toFixed(2)}] vs ${row.fastestPeerLabel}, ${pairs.length} pairs`;
    if (minShare) {
      const share = pairs.filter((x) => x >= minShare.at).length / pairs.length;
      holds &&= share >= minShare.share;
      display += `; ${(100 * share).toFixed(0)}% of pairs >= ${minShare.at}x`;
    }
    out.push({ goal: name, target: `>= ${target}x fastest peer${minShare ? `, >= ${minShare.at}x in ${100 * minShare.share}% of pairs` : ''}`, value: m, display, holds, row: row.id, peer: row.fastestPeer });
  };
  vsPeer('Fetch eager, 1 batch (keys, values, headers read; CRC verified)', 3, ours('fetch/none/', 'eager'));
  vsPeer('Fetch eager, 10 batches', 3, ours('fetch/none10/', 'eager'));
  vsPeer(`Fetch eager, 1 batch, last ${KEPT_RESULTS} kept alive`, 2.5, ours('fetch/none/', 'kept'));
  vsPeer(`Fetch eager, 10 batches, last ${KEPT_RESULTS} kept alive`, 2.5, ours('fetch/none10/', 'kept'));
  for (const v of [6, 12]) vsPeer(`Metadata decode, v${v}`, 4, byId(`metadata/decode/kafka-wire/v${v}`)?.ratio && byId(`metadata/decode/kafka-wire/v${v}`), { at: 3, share: 0.9 });
  vsPeer('Produce encode', 8, byId('produce/none/kafka-wire/v7')?.ratio && byId('produce/none/kafka-wire/v7'));
  const crc = byId('crc/1MiB/kafka-wire/wasm');
  if (crc?.mbPerSec) out.push({ goal: 'CRC-32C in WebAssembly, copy in included', target: '>= 3 GB/s', value: crc.mbPerSec / 1000, display: `${(crc.mbPerSec / 1000).toFixed(2)} GB/s (quartiles ${fmtGB(crc, 0.75)}-${fmtGB(crc, 0.25)})`, holds: crc.mbPerSec >= 3000, row: crc.id });
  const fr = byId('frames/stream/kafka-wire/splitter');
  const mc = byId('crc/1MiB/reference/memcpy');
  if (fr?.mbPerSec && mc?.mbPerSec) {
    // Per round: splitter throughput / memcpy throughput (both ran in that round).
    const st = ratioStats(pairRatios(mc.roundsMs, fr.roundsMs).map((x) => (x * fr.bytes) / mc.bytes));
    out.push({ goal: 'Frame splitting, default mode', target: '>= 25% of memcpy (1 MiB)', value: st.median, display: `${(100 * st.median).toFixed(1)}% [${(100 * st.q1).toFixed(1)}-${(100 * st.q3).toFixed(1)}] (${fmtMB(fr.mbPerSec)} vs ${fmtMB(mc.mbPerSec)} MB/s)`, holds: st.median >= 0.25, row: fr.id });
  }
  out.push(...extra);
  const mixed = rows.filter((r) => r.mixedRatio !== undefined);
  if (mixed.length) {
    const over = mixed.filter((r) => r.mixedRatio > 1.25);
    out.push({ goal: 'Every row within 1.25x between isolated and mixed runs', target: 'mixed/isolated <= 1.25', value: Math.max(...mixed.map((r) => r.mixedRatio)), display: `${mixed.length - over.length}/${mixed.length} rows${over.length ? `; over: ${over.map((r) => `${r.id} ${r.mixedRatio.toFixed(2)}`).join(', ')}` : ''}`, holds: over.length === 0 });
  }
  return out;
}

function fmtGB(r, q) {
  return ((r.bytes / quantile(r.roundsMs, q)) / 1e6).toFixed(2);
}

function fmtNs(x) {
  if (x === undefined) return '';
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

function fmtMB(x) {
  if (x === undefined) return '';
  return x >= 100 ? x.toFixed(0) : x.toFixed(1);
}

function fmtRatio(r) {
  if (r.na) return 'n/a';
  if (r.mode === 'positions') return '(own category)';
  if (!r.ratio) return r.contender === 'reference' ? '(reference)' : '—';
  return `${r.ratio.median.toFixed(2)}x [${r.ratio.q1.toFixed(2)}-${r.ratio.q3.toFixed(2)}]`;
}

function rowCells(r) {
  if (r.na) return [r.label, 'n/a', 'n/a', '', '', 'n/a', '', '', r.na];
  const check = r.verified === false ? ' MISMATCH' : '';
  return [
    r.label + check,
    `${fmtNs(r.nsPerUnit)} ns/${r.unit}`,
    fmtMB(r.mbPerSec),
    r.allocBytesPerUnit === undefined ? '' : fmtNs(r.allocBytesPerUnit),
    r.allocObjectsPerUnit === undefined ? '' : fmtNs(r.allocObjectsPerUnit),
    fmtRatio(r),
    r.spreadPct === undefined ? '' : `${r.spreadPct.toFixed(1)}%`,
    r.mixedRatio === undefined ? '' : r.mixedRatio.toFixed(2),
    r.note ?? (r.info && r.contender === 'kafka-wire' && r.workload === 'fetch' && r.case === 'none' && r.mode === 'eager' ? r.info : ''),
  ];
}

const HEAD = ['contender', 'time', 'MB/s', 'alloc B/unit', 'objects/unit', 'vs fastest peer (paired median [quartiles])', 'IQR/median', 'mixed/iso', 'notes'];
const LEFT = new Set([0, HEAD.length - 1]);

/** The kafka-wire rows against the baseline build (run.mjs --baseline), as markdown table lines. */
export function baselineTable(groups, baseline) {
  const rows = groups.flatMap(([, , g]) => g.filter((r) => r.vsBaseline !== undefined));
  if (rows.length === 0) return [];
  const cell = (r) => `${r.vsBaseline.median.toFixed(2)}x [${r.vsBaseline.q1.toFixed(2)}-${r.vsBaseline.q3.toFixed(2)}]`;
  return [
    `## Against the baseline build (${baseline})`, '',
    'Each kafka-wire row and its twin loaded from the baseline\'s dist/ ran in the same rounds, in fresh processes one after the other; the ratio is the median over rounds of (baseline time / this build\'s time), quartiles in brackets: above 1, this build is faster.', '',
    '| workload | row | baseline ms | this build ms | baseline / this |', '| --- | --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.workload}/${r.case} | ${r.label} | ${r.baselineMs.toFixed(3)} | ${r.medianMs.toFixed(3)} | ${cell(r)} |`),
  ];
}

export function textTables(groups) {
  const lines = [];
  let lastW = '';
  for (const [w, c, g] of groups) {
    if (w !== lastW) { lines.push('', `== ${WORKLOAD_TITLES[w]} ==`); lastW = w; }
    const title = CASE_TITLES[c];
    if (title && w !== 'produce') lines.push(`-- ${title}`);
    const cells = [HEAD, ...g.map(rowCells)];
    const widths = HEAD.map((_, i) => Math.max(...cells.map((row) => String(row[i]).length)));
    for (const row of cells) lines.push('  ' + row.map((x, i) => (LEFT.has(i) ? String(x).padEnd(widths[i]) : String(x).padStart(widths[i]))).join('  ').trimEnd());
  }
  return lines.join('\n');
}

export function markdown({ machine, params, groups, goalRows, bundle, notes, command, importLines = [] }) {
  const L = [];
  L.push('# kafka-wire benchmark results', '');
  L.push(`Machine: ${machine.cpu}, ${machine.cores} cores, ${(machine.memoryBytes / 2 ** 30).toFixed(0)} GiB; Node ${machine.node} (V8 ${machine.v8}), ${machine.os}; ${machine.date}.`, '');
  L.push(`Command: \`${command}\` — ${params.rounds} rounds; in every round each row of a table runs in its own fresh process, the rows of one table one after another (the order rotates from round to round), tinybench time ${params.time} ms / warmup ${params.warmupTime} ms per process. "time" = median over rounds. "vs fastest peer" = median over rounds of (fastest peer's time in that round / this row's time in that round), with the quartiles of those per-round ratios in brackets; the fastest peer is the one with the lowest median time among the peers' rows of the same kind (eager with eager, kept alive with kept alive); above 1: faster than every peer. Positions rows (lazy access, no object per record) are their own category with no ratio. "alloc B/unit" and "objects/unit" = JavaScript heap allocation of one call per unit (V8's sampling heap profiler sampling every allocation, median of 3 calls; ArrayBuffer backing stores not counted). "IQR/median" = interquartile range of the round times over their median. "mixed/iso" = time in one process running every row / isolated time.`, '');
  if (machine.git) L.push(`Code: commit ${machine.git.head}${machine.git.dirtySourceFiles ? ` plus ${machine.git.dirtySourceFiles} uncommitted source files` : ''}, dist/ built ${machine.distBuilt}. Load average at start: ${machine.loadAverage.map((x) => x.toFixed(2)).join(', ')}${machine.loadAverageEnd ? `; at end: ${machine.loadAverageEnd.map((x) => x.toFixed(2)).join(', ')}` : ''}.`, '');
  L.push(`Peers: ${Object.entries(machine.versions).map(([k, v]) => `${k} ${v}`).join(', ')}.`, '');
  let lastW = '';
  for (const [w, c, g] of groups) {
    if (w !== lastW) { L.push(`## ${WORKLOAD_TITLES[w]}`, ''); lastW = w; }
    const title = CASE_TITLES[c];
    if (title && w !== 'produce') L.push(`**${title}**`, '');
    L.push(`| ${HEAD.join(' | ')} |`, `|${HEAD.map((_, i) => (LEFT.has(i) ? ' --- ' : ' ---: ')).join('|')}|`);
    for (const r of g) L.push(`| ${rowCells(r).map((x) => String(x).replaceAll('|', '\\|')).join(' | ')} |`);
    L.push('');
  }
  if (importLines.length) L.push(...importLines, '');
  L.push('## Goals', '', '| goal | target | measured | holds |', '| --- | --- | --- | --- |');
  for (const g of goalRows) L.push(`| ${g.goal} | ${g.target} | ${g.display ?? g.note ?? ''} | ${g.holds === null ? 'n/a' : g.holds ? 'yes' : '**no**'} |`);
  if (bundle) {
    L.push('', '## Bundle size', '', `dist/browser/kafka-wire.js: ${bundle.raw} bytes raw, ${bundle.gzip} bytes gzip -9.`);
  }
  L.push('', '## Notes', '');
  for (const n of notes) L.push(`- ${n}`);
  L.push('');
  return L.join('\n');
}

export { fmtMB, fmtNs };

// Aggregation (medians over rounds, ratios, goals) and the text / markdown tables.
import { WORKLOADS, WORKLOAD_TITLES, FETCH_CASES, PEERS } from './tasks.mjs';

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

const CASE_TITLES = { ...FETCH_CASES, decode: 'decode', encode: 'encode', stream: '', '1MiB': '', none_produce: '' };

/** Fills per-row statistics and ratios; returns the rows grouped as [workload, case, rows]. */
export function aggregate(rows) {
  for (const r of rows) {
    if (r.na || !r.roundsMs?.length) continue;
    r.medianMs = median(r.roundsMs);
    r.spreadPct = r.roundsMs.length > 1 ? (100 * (Math.max(...r.roundsMs) - Math.min(...r.roundsMs))) / r.medianMs : undefined;
    r.nsPerUnit = (r.medianMs * 1e6) / r.units;
    r.mbPerSec = r.bytes / (r.medianMs / 1000) / 1e6;
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
      const peers = g.filter((r) => PEERS.includes(r.contender) && r.medianMs !== undefined);
      const fastest = peers.sort((a, b) => a.medianMs - b.medianMs)[0];
      for (const r of g) {
        if (fastest && r.medianMs !== undefined && r.contender !== 'reference') {
          r.fastestPeer = fastest.id;
          r.ratioToFastestPeer = fastest.medianMs / r.medianMs;
        }
      }
      groups.push([w, c, g, fastest]);
    }
  }
  return groups;
}

/** The issue's speed goals, each against the row it names. */
export function goals(rows) {
  const byId = (id) => rows.find((r) => r.id === id);
  const out = [];
  const vsPeer = (name, target, ours, fastestFor) => {
    const fastest = fastestFor && byId(fastestFor);
    if (!ours || ours.medianMs === undefined) return;
    if (!fastest) {
      out.push({ goal: name, target: `>= ${target}x fastest peer`, value: null, holds: null, row: ours.id, note: 'no peer implements it' });
      return;
    }
    const ratio = fastest.medianMs / ours.medianMs;
    out.push({ goal: name, target: `>= ${target}x fastest peer`, value: ratio, display: `${ratio.toFixed(2)}x vs ${fastest.label}`, holds: ratio >= target, row: ours.id, peer: fastest.id });
  };
  const sameVersion = (ids, fastestId) => {
    const f = fastestId && byId(fastestId);
    const cands = ids.map(byId).filter((r) => r && r.medianMs !== undefined);
    return (f && cands.find((r) => r.version === f.version)) ?? cands[0];
  };
  const fetchFastest = byId('fetch/none/kafka-wire/eager-v12')?.fastestPeer;
  vsPeer('Fetch decode, eager (1 batch, uncompressed)', 2, sameVersion(['fetch/none/kafka-wire/eager-v12', 'fetch/none/kafka-wire/eager-v11'], fetchFastest), fetchFastest);
  vsPeer('Fetch decode, lazy (1 batch, uncompressed)', 4, byId('fetch/none/kafka-wire/lazy-v12'), fetchFastest);
  vsPeer('Produce encode', 5, byId('produce/none/kafka-wire/v7'), byId('produce/none/kafka-wire/v7')?.fastestPeer);
  const mdFastest = byId('metadata/decode/kafka-wire/v12')?.fastestPeer;
  vsPeer('Metadata decode', 3, sameVersion(['metadata/decode/kafka-wire/v12', 'metadata/decode/kafka-wire/v6'], mdFastest), mdFastest);
  vsPeer('Metadata encode', 3, byId('metadata/encode/kafka-wire/v12'), byId('metadata/encode/kafka-wire/v12')?.fastestPeer);
  const fr = byId('frames/stream/kafka-wire/splitter');
  const mc = byId('crc/1MiB/reference/memcpy');
  const ms = byId('frames/stream/reference/memcpy');
  const fe = byId('frames/stream/kafka-wire/splitter-reuse');
  if (fr?.mbPerSec && mc?.mbPerSec) {
    const f = fr.mbPerSec / mc.mbPerSec;
    const stream = ms?.mbPerSec ? `; ${(100 * fr.mbPerSec / ms.mbPerSec).toFixed(1)}% of the 64 MiB chunk copy (${fmtMB(ms.mbPerSec)} MB/s)` : '';
    const reuse = fe?.mbPerSec ? `; with { reuse: true } ${(100 * fe.mbPerSec / mc.mbPerSec).toFixed(1)}% (${fmtMB(fe.mbPerSec)} MB/s)` : '';
    out.push({ goal: 'Frame splitting', target: '>= 25% of memcpy (1 MiB) throughput', value: f, display: `${(100 * f).toFixed(1)}% (${fmtMB(fr.mbPerSec)} vs ${fmtMB(mc.mbPerSec)} MB/s)${stream}${reuse}`, holds: f >= 0.25, row: fr.id });
  }
  const crc = byId('crc/1MiB/kafka-wire/wasm');
  if (crc?.mbPerSec) out.push({ goal: 'CRC-32C', target: '>= 2 GB/s', value: crc.mbPerSec / 1000, display: `${(crc.mbPerSec / 1000).toFixed(2)} GB/s`, holds: crc.mbPerSec >= 2000, row: crc.id });
  for (const r of rows) {
    if (r.contender === 'kafka-wire' && r.mixedRatio !== undefined) {
      out.push({ goal: `Mixed run: ${r.id}`, target: 'mixed/isolated <= 1.25', value: r.mixedRatio, display: `${r.mixedRatio.toFixed(2)}`, holds: r.mixedRatio <= 1.25, row: r.id, mixed: true });
    }
  }
  return out;
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
  if (r.ratioToFastestPeer === undefined) return r.contender === 'reference' ? '(reference)' : '—';
  return `${r.ratioToFastestPeer.toFixed(2)}x`;
}

function rowCells(r) {
  if (r.na) return [r.label, 'n/a', 'n/a', 'n/a', '', '', r.na];
  const check = r.verified === false ? ' MISMATCH' : '';
  return [
    r.label + check,
    `${fmtNs(r.nsPerUnit)} ns/${r.unit}`,
    fmtMB(r.mbPerSec),
    fmtRatio(r),
    r.spreadPct === undefined ? '' : `${r.spreadPct.toFixed(1)}%`,
    r.mixedRatio === undefined ? '' : r.mixedRatio.toFixed(2),
    r.note ?? (r.info && r.contender === 'kafka-wire' && r.workload === 'fetch' && r.case === 'none' ? r.info : ''),
  ];
}

const HEAD = ['contender', 'time', 'MB/s', 'vs fastest peer', 'spread', 'mixed/iso', 'notes'];

export function textTables(groups) {
  const lines = [];
  let lastW = '';
  for (const [w, c, g] of groups) {
    if (w !== lastW) { lines.push('', `== ${WORKLOAD_TITLES[w]} ==`); lastW = w; }
    const title = CASE_TITLES[c];
    if (title && w !== 'produce') lines.push(`-- ${title}`);
    const cells = [HEAD, ...g.map(rowCells)];
    const widths = HEAD.map((_, i) => Math.max(...cells.map((row) => String(row[i]).length)));
    for (const row of cells) lines.push('  ' + row.map((x, i) => (i === 0 || i === 6 ? String(x).padEnd(widths[i]) : String(x).padStart(widths[i]))).join('  ').trimEnd());
  }
  return lines.join('\n');
}

export function markdown({ machine, params, groups, goalRows, bundle, notes, command }) {
  const L = [];
  L.push('# kafka-wire benchmark results', '');
  L.push(`Machine: ${machine.cpu}, ${machine.cores} cores, ${(machine.memoryBytes / 2 ** 30).toFixed(0)} GiB; Node ${machine.node} (V8 ${machine.v8}), ${machine.os}; ${machine.date}.`, '');
  L.push(`Command: \`${command}\` — ${params.rounds} round${params.rounds === 1 ? '' : 's'}, each contender in its own fresh process per round (alternating order), tinybench time ${params.time} ms / warmup ${params.warmupTime} ms per task; figures are medians over rounds of the per-round mean. "vs fastest peer" = fastest peer's time / this row's time (above 1: faster than every peer). "spread" = (max - min) / median over rounds. "mixed/iso" = time in one process running every workload and contender / isolated time.`, '');
  if (machine.git) L.push(`Code: commit ${machine.git.head}${machine.git.dirtySourceFiles ? ` plus ${machine.git.dirtySourceFiles} uncommitted source files` : ''}, dist/ built ${machine.distBuilt}. Load average at start: ${machine.loadAverage.map((x) => x.toFixed(2)).join(', ')}${machine.loadAverageEnd ? `; at end: ${machine.loadAverageEnd.map((x) => x.toFixed(2)).join(', ')}` : ''}.`, '');
  L.push(`Peers: kafkajs ${machine.versions.kafkajs}, @platformatic/kafka ${machine.versions.platformatic}; tinybench ${machine.versions.tinybench}.`, '');
  let lastW = '';
  for (const [w, c, g] of groups) {
    if (w !== lastW) { L.push(`## ${WORKLOAD_TITLES[w]}`, ''); lastW = w; }
    const title = CASE_TITLES[c];
    if (title && w !== 'produce') L.push(`**${title}**`, '');
    L.push(`| ${HEAD.join(' | ')} |`, `|${HEAD.map((_, i) => (i === 0 || i === 6 ? ' --- ' : ' ---: ')).join('|')}|`);
    for (const r of g) L.push(`| ${rowCells(r).map((x) => String(x).replaceAll('|', '\\|')).join(' | ')} |`);
    L.push('');
  }
  L.push('## Goals (isolated runs)', '', '| goal | target | measured | holds |', '| --- | --- | --- | --- |');
  for (const g of goalRows.filter((x) => !x.mixed)) L.push(`| ${g.goal} | ${g.target} | ${g.display ?? g.note ?? ''} | ${g.holds === null ? 'n/a' : g.holds ? 'yes' : '**no**'} |`);
  const mixed = goalRows.filter((x) => x.mixed);
  if (mixed.length) {
    const worst = mixed.reduce((a, b) => (b.value > a.value ? b : a));
    const failing = mixed.filter((x) => !x.holds);
    L.push('', `Mixed run (goal: kafka-wire loses at most 25%, mixed/iso <= 1.25): ${mixed.length - failing.length} of ${mixed.length} kafka-wire rows hold; worst ${worst.row} at ${worst.display}.${failing.length ? ` Over: ${failing.map((x) => `${x.row} (${x.display})`).join(', ')}.` : ''}`);
  }
  if (bundle) {
    L.push('', '## Bundle size', '', `dist/browser/kafka-wire.js: ${bundle.raw} bytes raw, ${bundle.gzip} bytes gzip -9.`);
  }
  L.push('', '## Notes', '');
  for (const n of notes) L.push(`- ${n}`);
  L.push('');
  return L.join('\n');
}

export { fmtMB, fmtNs };

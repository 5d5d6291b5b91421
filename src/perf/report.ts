// The --report page of a perf run: one HTML file, no scripts, no fonts, no network, with inline
// SVG plots of throughput over time, ack latency over time and the latency distribution (by
// percentile, HDR style, and as a histogram), plus the run's figures and Kafka-style lines.
import { writeFileSync } from 'node:fs';
import type { Histogram } from './histogram.js';
import type { TimelinePoint } from './stats.js';

export interface ReportData {
  kind: 'produce' | 'consume';
  title: string;
  topic: string;
  /** The options as given. */
  settings: string;
  summaryLines: string[];
  timeline: readonly TimelinePoint[];
  /** How long the run took (ms since the timeline's zero): the last point covers only up to it. */
  elapsedMs: number;
  /** --throughput, drawn as a dashed line. */
  targetRate?: number;
  /** Ack latency in microseconds (produce), or null. */
  histogram: Histogram | null;
  figures: [label: string, value: string][];
}

const W = 760;
const H = 260;
const M = { left: 70, right: 20, top: 16, bottom: 40 };

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Round axis steps: 1, 2, 5 times a power of ten. */
function niceStep(range: number, ticks: number): number {
  const raw = range / Math.max(1, ticks);
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
}

function fmt(n: number): string {
  if (n >= 1e6) return `${+(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${+(n / 1e3).toFixed(1)}k`;
  return `${+n.toFixed(2)}`;
}

interface Series { points: [number, number][]; color: string; label: string; dashed?: boolean; area?: boolean }

/** A line chart in SVG with linear axes (or an x axis of given labelled positions). */
function lineChart(series: Series[], xLabel: string, yLabel: string,
  xTicks?: { at: number; label: string }[], yLog = false): string {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return '<p class="empty">no data</p>';
  const xMin = Math.min(...all.map((p) => p[0]));
  const xMax = Math.max(...all.map((p) => p[0]), xMin + 1e-9);
  const ys = all.map((p) => p[1]);
  const yOf = (v: number) => (yLog ? Math.log10(Math.max(v, 1e-3)) : v);
  const yMin = yLog ? Math.floor(yOf(Math.max(Math.min(...ys), 1e-3))) : 0;
  let yMax = yLog ? Math.ceil(yOf(Math.max(...ys)) + 1e-9) : Math.max(...ys) * 1.08;
  if (!(yMax > yMin)) yMax = yMin + 1;
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const sx = (x: number) => M.left + ((x - xMin) / (xMax - xMin)) * pw;
  const sy = (y: number) => M.top + ph - ((yOf(y) - yMin) / (yMax - yMin)) * ph;
  const parts: string[] = [];
  // Grid and y ticks.
  const yTicks: number[] = [];
  if (yLog) for (let e = yMin; e <= yMax; e++) yTicks.push(10 ** e);
  else { const step = niceStep(yMax, 5); for (let v = 0; v <= yMax; v += step) yTicks.push(v); }
  for (const v of yTicks) {
    const y = sy(v).toFixed(1);
    parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}" class="grid"/><text x="${M.left - 6}" y="${y}" dy="4" text-anchor="end">${fmt(v)}</text>`);
  }
  const xt = xTicks ?? (() => {
    const step = niceStep(xMax - xMin, 8);
    // As many decimals as the step has (a 25 ms run has ticks 5 ms apart).
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const out: { at: number; label: string }[] = [];
    for (let i = Math.ceil(xMin / step - 1e-9); i * step <= xMax + step * 1e-6; i++) out.push({ at: i * step, label: (i * step).toFixed(decimals) });
    return out;
  })();
  for (const t of xt) {
    const x = sx(t.at).toFixed(1);
    parts.push(`<line x1="${x}" x2="${x}" y1="${M.top}" y2="${H - M.bottom}" class="grid"/><text x="${x}" y="${H - M.bottom + 16}" text-anchor="middle">${escape(t.label)}</text>`);
  }
  parts.push(`<text x="${M.left + pw / 2}" y="${H - 4}" text-anchor="middle" class="axis">${escape(xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle" class="axis">${escape(yLabel)}</text>`);
  for (const s of series) {
    if (s.points.length === 0) continue;
    const d = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join('');
    if (s.area) {
      const base = sy(yLog ? 10 ** yMin : 0).toFixed(1);
      parts.push(`<path d="${d}L${sx(s.points[s.points.length - 1]![0]).toFixed(1)},${base}L${sx(s.points[0]![0]).toFixed(1)},${base}Z" fill="${s.color}" opacity="0.15"/>`);
    }
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
  }
  const legend = series.map((s, i) => `<g transform="translate(${M.left + 10 + i * 170} ${M.top + 4})"><rect width="14" height="4" y="4" fill="${s.color}"/><text x="20" y="10">${escape(s.label)}</text></g>`).join('');
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${parts.join('')}${legend}</svg>`;
}

/** The percentile plot: x = 1 / (1 - q) on a log scale, labelled 0%, 90%, 99%, ... */
function percentileChart(h: Histogram): string {
  const points: [number, number][] = [];
  for (let i = 0; i <= 80; i++) {
    const nines = (i / 80) * 4; // up to 99.99%
    const q = 1 - 10 ** -nines;
    points.push([nines, h.quantile(q) / 1000]);
  }
  const ticks = [0, 1, 2, 3, 4].map((n) => ({ at: n, label: n === 0 ? '0%' : `${(100 - 100 * 10 ** -n).toFixed(n <= 2 ? 0 : n - 2)}%` }));
  return lineChart([{ points, color: '#7b3fb5', label: 'latency at percentile', area: true }], 'percentile (records)', 'ack latency, ms', ticks);
}

/** The histogram as bars: buckets merged to 60 bars on a log scale over [min, max] of the values. */
function histogramBars(h: Histogram): string {
  const buckets = h.buckets();
  if (buckets.length === 0) return '<p class="empty">no data</p>';
  // The axis starts at the smallest value above zero (a bar there also holds the zeros: latencies
  // come in whole milliseconds, so zero means "under 1 ms").
  const positive = buckets.find((b) => b[0] > 0) ?? buckets[0]!;
  const lo = Math.log10(Math.max(1, positive[0])) - 0.05;
  const hi = Math.log10(Math.max(buckets[buckets.length - 1]![1] + 1, 10 ** lo * 1.01)) + 0.05;
  const bins = 60;
  const counts = new Array<number>(bins).fill(0);
  for (const [low, high, c] of buckets) {
    const mid = Math.log10(Math.max(1, (low + high) / 2));
    const i = Math.min(bins - 1, Math.max(0, Math.floor(((mid - lo) / (hi - lo)) * bins)));
    counts[i]! += c;
  }
  const total = h.count;
  const max = Math.max(...counts);
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const bw = pw / bins;
  const parts: string[] = [];
  counts.forEach((c, i) => {
    if (c === 0) return;
    const bh = (c / max) * ph;
    parts.push(`<rect x="${(M.left + i * bw + 0.5).toFixed(1)}" y="${(M.top + ph - bh).toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${bh.toFixed(1)}" fill="#2a7ab0"><title>${(100 * c / total).toFixed(2)}% of records</title></rect>`);
  });
  for (let e = Math.ceil(lo); e <= Math.floor(hi); e++) {
    for (const m of [1, 2, 5]) {
      const v = Math.log10(m * 10 ** e);
      if (v < lo || v > hi) continue;
      const x = (M.left + ((v - lo) / (hi - lo)) * pw).toFixed(1);
      parts.push(`<line x1="${x}" x2="${x}" y1="${M.top + ph}" y2="${M.top + ph + 5}" class="tick"/><text x="${x}" y="${H - M.bottom + 16}" text-anchor="middle">${fmt(m * 10 ** e / 1000)}</text>`);
    }
  }
  parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${M.top + ph}" y2="${M.top + ph}" class="tick"/>`);
  parts.push(`<text x="${M.left + pw / 2}" y="${H - 4}" text-anchor="middle" class="axis">ack latency, ms (log scale)</text>`);
  parts.push(`<text transform="translate(14 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle" class="axis">records</text>`);
  return `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img">${parts.join('')}</svg>`;
}

/** A timeline point over the time it really covers: the last one ends with the run, not a second later. */
export interface Step { fromS: number; toS: number; point: TimelinePoint }

/** The timeline as steps, each cut at the run's end (a partial last second is no fall in the rate). */
export function timelineSteps(timeline: readonly TimelinePoint[], elapsedMs: number): Step[] {
  return timeline.map((point) => {
    const spanMs = Math.max(1, Math.min(point.spanMs, elapsedMs - point.atMs));
    return { fromS: point.atMs / 1000, toS: (point.atMs + spanMs) / 1000, point };
  });
}

/** Each step drawn flat over its interval, so even a single point (a sub-second run) is a line. */
const stepLine = (steps: readonly Step[], value: (s: Step) => number): [number, number][] =>
  steps.flatMap((s) => [[s.fromS, value(s)], [s.toS, value(s)]] as [number, number][]);

/** Records per second over a step. */
export const stepRate = (s: Step) => s.point.records / (s.toS - s.fromS);

export function renderReport(data: ReportData): string {
  const t = data.timeline;
  const steps = timelineSteps(t, data.elapsedMs);
  const rate = stepLine(steps, stepRate);
  const series: Series[] = [{ points: rate, color: '#2a7ab0', label: 'records/s', area: true }];
  if (data.targetRate !== undefined && rate.length > 0) {
    series.push({ points: [[rate[0]![0], data.targetRate], [rate[rate.length - 1]![0], data.targetRate]], color: '#c0392b', label: `--throughput ${fmt(data.targetRate)}`, dashed: true });
  }
  const sections: string[] = [];
  sections.push(`<h2>Throughput over time</h2>${lineChart(series, 'seconds since the start', 'records per second')}`);
  if (data.histogram !== null) {
    const withLatency = steps.filter((s) => s.point.records > 0);
    sections.push(`<h2>Ack latency over time</h2>${lineChart([
      { points: stepLine(withLatency, (s) => s.point.latencySumMs / s.point.records), color: '#27ae60', label: 'average' },
      { points: stepLine(withLatency, (s) => s.point.latencyMaxMs), color: '#e67e22', label: 'maximum' },
    ], 'seconds since the start', 'ack latency, ms')}`);
    sections.push(`<h2>Latency by percentile</h2>${percentileChart(data.histogram)}`);
    sections.push(`<h2>Latency distribution</h2>${histogramBars(data.histogram)}`);
  }
  const figures = data.figures.map(([k, v]) => `<div class="figure"><div class="v">${escape(v)}</div><div class="k">${escape(k)}</div></div>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(data.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px auto; max-width: 800px; color: #222; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 24px 0 6px; }
.settings, pre { font: 12px/1.4 ui-monospace, monospace; color: #555; }
pre { background: #f5f5f5; padding: 8px; white-space: pre-wrap; }
.figures { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 12px; }
.figure { border: 1px solid #ddd; border-radius: 4px; padding: 6px 10px; min-width: 80px; }
.figure .v { font-size: 17px; font-weight: 600; } .figure .k { font-size: 11px; color: #666; }
svg text { font-size: 11px; fill: #444; } svg .axis { font-size: 12px; fill: #222; }
svg .grid { stroke: #e6e6e6; } svg .tick { stroke: #999; }
</style></head><body>
<h1>${escape(data.title)}</h1>
<div class="settings">${escape(data.settings)}</div>
<div class="figures">${figures}</div>
${sections.join('\n')}
<h2>Kafka perf-test lines</h2>
<pre>${escape(data.summaryLines.join('\n'))}</pre>
<p class="settings">kafka-wire perf ${data.kind}, ${escape(new Date().toISOString())}; timeline points of ${t.length > 0 ? t[0]!.spanMs / 1000 : 1} s.</p>
</body></html>
`;
}

export function writeReport(file: string, data: ReportData): void {
  writeFileSync(file, renderReport(data));
}

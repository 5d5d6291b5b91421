// HTML for the explorer site: the index, a page per API and version (like the reference pages),
// and the interactive page. Pure functions of the catalogue, sample frames and explain trees.
import type { ApiDef, MessageDef, Versions } from '../catalogue/schema.js';
import { inVersions, MAX_VERSION } from '../catalogue/schema.js';
import {
  ARRAY, headerVersionFor, planForMessage, STRUCT, type CompiledField, type CompiledStruct, type Direction,
} from '../codec/by-key.js';
import type { ExplainTree } from '../explain/tree.js';
import { escapeHtml, formatHexHtml, formatLegendHtml, formatTreeHtml, hexLayout } from '../explain/hex.js';
import { toHex } from '../text.js';
import { API_GROUPS, apiGroup } from './groups.js';
import { LIBRARY_SCRIPT, SITE_SCRIPTS } from './bundling.js';

function rangeText(range: Versions): string {
  if (range === null) return 'none';
  if (range[1] >= MAX_VERSION) return `${range[0]}+`;
  return range[0] === range[1] ? `${range[0]}` : `${range[0]}-${range[1]}`;
}

/** Whether Kafka has removed this version (KIP-896: the catalogue marks such versions deprecated). */
export function isRemoved(api: ApiDef, version: number): boolean {
  const removed = api.request.deprecatedVersions;
  return removed !== undefined && inVersions(removed, version);
}

const REMOVED_TITLE = 'removed by Kafka (KIP-896): brokers since Kafka 4.0 refuse this version';

export function apiPageName(api: ApiDef, version: number): string {
  return `${api.name}-v${version}.html`;
}

export function versionsOf(api: ApiDef): number[] {
  const out: number[] = [];
  for (let v = api.request.validVersions[0]; v <= api.request.validVersions[1]; v++) out.push(v);
  return out;
}

/** "v1: 0-8, v2: 9+" — which header version each range of API versions uses. */
function headerVersionsText(api: ApiDef, direction: Direction): string {
  const versions = versionsOf(api);
  const of = (v: number) => headerVersionFor(api[direction], v);
  const parts: string[] = [];
  let start = versions[0];
  for (let i = 1; i <= versions.length; i++) {
    if (i === versions.length || of(versions[i]) !== of(start)) {
      const last = versions[i - 1];
      parts.push(`v${of(start)}: ${start === last ? start : `${start}-${last}`}`);
      if (i < versions.length) start = versions[i];
    }
  }
  return parts.length === 1 ? `v${of(versions[0])}` : parts.join(', ');
}

function pageShell(title: string, body: string, options: { depth: number; scripts?: string[] }): string {
  const up = options.depth === 0 ? '' : '../'.repeat(options.depth);
  const scripts = (options.scripts ?? []).map((s) => `<script src="${up}${s}"></script>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${up}assets/site.css">
</head>
<body>
<header class="top"><strong>kafka-wire</strong><a href="${up}index.html">API keys</a><a href="${up}explore.html">explain a frame</a><a href="${up}capture.html">read a capture</a><a href="${up}live.html">live view</a></header>
<main>
${body}
</main>
${scripts}
</body>
</html>
`;
}

function intro(version: number, flexible: boolean): string {
  const flex = flexible
    ? `Version ${version} is a flexible version, so every struct is terminated by a uvarint tagged-field count and strings and arrays carry compact length-plus-one prefixes.`
    : `Version ${version} is not a flexible version, so structs carry no tagged-field counts and strings and arrays carry fixed-width length prefixes (int16 for strings, int32 for arrays and byte arrays).`;
  return 'This page encodes the smallest legal instance of the request and the response: numeric fields are zero, '
    + 'strings and byte arrays are empty, every array carries exactly one sample element, and any records field holds '
    + `one empty 61-byte RecordBatch v2. ${flex} Sizes below include the leading int32 size prefix.`;
}

function wireText(f: CompiledField): string {
  const kind = f.kind === ARRAY ? 'array' : f.def.type;
  switch (kind) {
    case 'string': return f.compact ? 'compact string (uvarint len+1)' : 'string (int16 len)';
    case 'bytes': case 'records': return f.compact ? `compact ${kind} (uvarint len+1)` : `${kind} (int32 len)`;
    case 'array': return f.compact ? 'compact array (uvarint n+1)' : 'array (int32 n)';
  }
  return f.kind === STRUCT ? (f.nullable ? 'struct (int8 marker)' : 'struct') : kind;
}

function defaultText(f: CompiledField): string {
  const d = f.def.default;
  if (d === undefined) return '';
  if (d === null) return 'null';
  return typeof d === 'string' ? JSON.stringify(d) : String(d);
}

/** The schema as facts: every field of the version, nested, from the catalogue. */
function factsTable(body: CompiledStruct): string {
  let rows = '';
  const visit = (s: CompiledStruct, depth: number) => {
    for (const f of [...s.regular, ...s.tagged]) {
      const indent = '&nbsp;'.repeat(depth * 4);
      rows += `<tr><td class="mono" data-label="field">${indent}${escapeHtml(f.def.schemaName)}</td><td class="mono" data-label="type">${escapeHtml(f.def.type)}</td>`
        + `<td data-label="on the wire">${escapeHtml(wireText(f))}</td><td data-label="versions">${rangeText(f.def.versions)}</td>`
        + `<td data-label="nullable">${f.nullable ? `yes (${rangeText(f.def.nullableVersions ?? null)})` : ''}</td>`
        + `<td data-label="tagged">${f.tag >= 0 ? `tag ${f.tag}` : ''}</td><td class="mono" data-label="default">${escapeHtml(defaultText(f))}</td></tr>\n`;
      if (f.struct !== null) visit(f.struct, depth + 1);
    }
  };
  visit(body, 0);
  return '<table class="facts"><thead><tr><th>field</th><th>type</th><th>on the wire</th><th>versions</th>'
    + `<th>nullable</th><th>tagged</th><th>default</th></tr></thead><tbody>\n${rows}</tbody></table>`;
}

export interface MessageSample {
  direction: Direction;
  frame: Uint8Array;
  tree: ExplainTree;
  /** A realistic instance from the seeded sampler, with its tree. */
  realistic?: { frame: Uint8Array; tree: ExplainTree; seed: number };
  /** Kafka's schema text, only when a schema directory was given. */
  schemaText?: string;
}

/** The realistic instance beside the smallest one: its bytes and tree, folded away until opened. */
function realisticSection(sample: MessageSample): string {
  const real = sample.realistic;
  if (real === undefined) return '';
  const explore = `../explore.html#dir=${sample.direction}&key=${real.tree.apiKey}&v=${real.tree.apiVersion}&hex=${toHex(real.frame)}`;
  return `<details class="realistic"><summary>a realistic ${sample.direction} (${real.frame.length} bytes: plausible names, ids and offsets${real.frame.length > 0 ? ', a few records where the message carries them' : ''}; seed ${real.seed})</summary>
<p><a class="open" href="${explore}">open in the explorer</a></p>
<div class="explain">
${formatHexHtml(hexLayout(real.frame, real.tree), { maxBytes: 512 })}
${formatTreeHtml(real.tree)}
</div>
</details>`;
}

function messageSection(sample: MessageSample, message: MessageDef): string {
  const { tree, frame, direction } = sample;
  const title = direction === 'request' ? 'Request' : 'Response';
  const other = direction === 'request' ? 'response' : 'request';
  const plan = planForMessage(message, tree.apiVersion);
  const explore = `../explore.html#dir=${direction}&key=${tree.apiKey}&v=${tree.apiVersion}&hex=${toHex(frame)}`;
  const schema = sample.schemaText !== undefined
    ? `<h3>kafka message schema (.json)</h3>\n<pre class="schema">${escapeHtml(sample.schemaText)}</pre>`
    : '';
  return `<section class="message ${direction}" id="${direction}">
<h2>${title}</h2>
<p class="caption">${escapeHtml(message.name)} v${tree.apiVersion}, ${direction} header v${tree.headerVersion}, ${frame.length} bytes on the wire
 <a class="open" href="${explore}">open in the explorer</a>
 <a class="pair" href="#${other}">${other === 'response' ? 'its response ↓' : 'its request ↑'}</a></p>
<div class="explain">
<h3>byte layout (${frame.length} bytes, 16 bytes per row)</h3>
${formatHexHtml(hexLayout(frame, tree))}
<h3>object tree</h3>
${formatTreeHtml(tree)}
</div>
${realisticSection(sample)}
<h3>schema facts (version ${tree.apiVersion})</h3>
${factsTable(plan.body)}
${schema}
</section>`;
}

export function apiVersionPage(api: ApiDef, version: number, request: MessageSample, response: MessageSample): string {
  const flexible = inVersions(api.request.flexibleVersions, version);
  const nav = versionsOf(api).map((v) => {
    const removed = isRemoved(api, v) ? ` class="removed" title="${REMOVED_TITLE}"` : '';
    return v === version ? `<span class="current${isRemoved(api, v) ? ' removed' : ''}">v${v}</span>` : `<a href="${apiPageName(api, v)}"${removed}>v${v}</a>`;
  }).join('');
  const removedNote = isRemoved(api, version)
    ? `<p class="removed-note">Kafka has removed ${escapeHtml(api.name)} v${version} (KIP-896): brokers since Kafka 4.0 refuse it. It is here for captures of older clusters.</p>\n`
    : '';
  const body = `<h1>${escapeHtml(api.name)}</h1>
${removedNote}<p class="intro">${intro(version, flexible)}</p>
<dl class="facts">
<dt>API key</dt><dd>${api.apiKey}</dd>
<dt>Encoded at</dt><dd>v${version}</dd>
<dt>Flexible versions</dt><dd>${rangeText(api.request.flexibleVersions)}</dd>
<dt>Headers</dt><dd>req v${request.tree.headerVersion}, resp v${response.tree.headerVersion}</dd>
<dt>Request versions</dt><dd>${rangeText(api.request.validVersions)}</dd>
<dt>Response versions</dt><dd>${rangeText(api.response.validVersions)}</dd>
<dt>Request size</dt><dd>${request.frame.length} bytes</dd>
<dt>Response size</dt><dd>${response.frame.length} bytes</dd>
</dl>
<nav class="versions">versions: ${nav}</nav>
${formatLegendHtml()}
${messageSection(request, api.request)}
${messageSection(response, api.response)}`;
  return pageShell(`${api.name} v${version} — kafka-wire`, body, { depth: 1, scripts: [`assets/${SITE_SCRIPTS['hover-entry']}`] });
}

/** Every field name of an API's messages in every version, lower-cased: what the index's search matches. */
function fieldNames(api: ApiDef): string {
  const names = new Set<string>();
  const visit = (fields: readonly { name: string; schemaName?: string }[] | undefined) => {
    for (const f of fields ?? []) names.add((f.schemaName ?? f.name).toLowerCase());
  };
  for (const message of [api.request, api.response]) {
    visit(message.fields);
    for (const struct of Object.values(message.structs ?? {})) visit(struct.fields);
  }
  return [...names].join(' ');
}

/**
 * The search box: rows whose name, key or field names hold every word typed, best first. A word
 * that is a row's whole name or key ranks it first, then names that start with it, names that hold
 * it, field names that are it, field names that hold it; a number matches keys from their start
 * only (so "3" finds 3 and 30-39, not 13 or 23). Groups follow their best row; empty ones hide.
 */
const SEARCH_SCRIPT = `<script>
(() => {
  const box = document.getElementById('search');
  const count = document.getElementById('shown');
  const groups = [...document.querySelectorAll('section.group')];
  const rows = [...document.querySelectorAll('tr[data-search]')];
  rows.forEach((row, i) => { row.dataset.order = i; });
  const end = document.createComment('end of the groups');
  groups[groups.length - 1].after(end);
  const wordScore = (row, w) => {
    const [name, key, ...fields] = row.dataset.search.split(' ');
    if (w === name || w === key) return 1000;
    if (/^[0-9]+$/.test(w)) return key.startsWith(w) ? 100 : 0;
    if (name.startsWith(w)) return 100;
    if (name.includes(w)) return 30;
    if (fields.includes(w)) return 10;
    return fields.some((f) => f.includes(w)) ? 1 : 0;
  };
  const filter = () => {
    const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let shown = 0;
    const best = new Map();
    for (const group of groups) {
      const scored = [...group.querySelectorAll('tr[data-search]')].map((row) => {
        const scores = words.map((w) => wordScore(row, w));
        return { row, score: scores.every((n) => n > 0) ? scores.reduce((a, b) => a + b, 0) : 0 };
      });
      scored.sort((a, b) => (words.length === 0 ? 0 : b.score - a.score) || a.row.dataset.order - b.row.dataset.order);
      const body = group.querySelector('tbody');
      for (const { row, score } of scored) {
        row.hidden = words.length > 0 && score === 0;
        if (!row.hidden) shown++;
        body.appendChild(row);
      }
      best.set(group, words.length === 0 ? 1 : Math.max(0, ...scored.map((s) => s.score)));
      group.hidden = best.get(group) === 0;
    }
    for (const group of [...groups].sort((a, b) => best.get(b) - best.get(a) || groups.indexOf(a) - groups.indexOf(b))) end.before(group);
    count.textContent = words.length === 0 ? '' : shown + ' of ' + rows.length + ' APIs';
  };
  box.addEventListener('input', filter);
  filter();
})();
</script>`;

export function indexPage(apis: readonly ApiDef[], options: { schemas: boolean }): string {
  const row = (api: ApiDef) => {
    const versions = versionsOf(api);
    const newest = versions[versions.length - 1];
    const links = versions.map((v) => (isRemoved(api, v)
      ? `<a class="removed" title="${REMOVED_TITLE}" href="api/${apiPageName(api, v)}">v${v}</a>`
      : `<a href="api/${apiPageName(api, v)}">v${v}</a>`)).join(' ');
    const search = `${api.name.toLowerCase()} ${api.apiKey} ${fieldNames(api)}`;
    return `<tr id="api-${api.apiKey}" data-search="${escapeHtml(search)}"><td data-label="key">${api.apiKey}</td>`
      + `<td data-label="API"><a href="api/${apiPageName(api, newest)}">${escapeHtml(api.name)}</a></td>`
      + `<td data-label="versions">${rangeText(api.request.validVersions)}</td><td data-label="flexible">${rangeText(api.request.flexibleVersions)}</td>`
      + `<td data-label="request header">${headerVersionsText(api, 'request')}</td><td data-label="response header">${headerVersionsText(api, 'response')}</td>`
      + `<td data-label="pages" class="pages">${links}</td></tr>`;
  };
  const groups = API_GROUPS.map((group) => {
    const members = apis.filter((api) => apiGroup(api) === group);
    if (members.length === 0) return '';
    return `<section class="group" id="group-${group.replace(/\W+/g, '-')}"><h2>${escapeHtml(group)}</h2>
<table class="index">
<thead><tr><th>key</th><th>API</th><th>versions</th><th>flexible</th><th>request header</th><th>response header</th><th>pages</th></tr></thead>
<tbody>
${members.map(row).join('\n')}
</tbody>
</table></section>`;
  }).join('\n');
  const pairs = apis.reduce((n, api) => n + versionsOf(api).length, 0);
  const body = `<h1>Kafka API keys</h1>
<p class="intro">${apis.length} API keys, ${pairs} key/version pairs. Each version has a page with the smallest legal
request and response and a realistic one, their bytes coloured by part, the object tree and the schema facts${options.schemas ? ' and text' : ''}.
Versions <a class="removed" title="${REMOVED_TITLE}">struck through</a> are ones Kafka has removed (KIP-896).
To explain frames of your own, use <a href="explore.html">the explorer</a>; to watch a cluster, <a href="live.html">the live view</a>.</p>
<p class="search"><label>search <input type="search" id="search" placeholder="name, key or field (e.g. fetch, 3, memberId)" autocomplete="off"></label> <span id="shown"></span></p>
${formatLegendHtml()}
${groups}
${SEARCH_SCRIPT}`;
  return pageShell('Kafka API keys — kafka-wire', body, { depth: 0 });
}

export function explorePage(apis: readonly ApiDef[], options: { descriptions: boolean; catalogue?: boolean }): string {
  const keys = apis.map((api) => `<option value="${api.apiKey}">${api.apiKey} ${escapeHtml(api.name)}</option>`).join('');
  const body = `<h1>Explain a frame</h1>
<div id="explorer">
<p>Paste a whole Kafka frame as hex (int32 size prefix, header, body), several frames back to back, or Wireshark's
"Copy as Hex Dump" text (of the Kafka bytes or of a whole packet), or drop a file with its bytes. A request
names its API key and version in its header; a response does not, so pick them below. Decoding runs in this
page with the same WebAssembly codec as the library; nothing is sent anywhere.</p>
<textarea id="hex" spellcheck="false" placeholder="00 00 00 1e 00 2d 00 00 ..."></textarea>
<div id="drop">drop a file here, or <input type="file" id="file"></div>
<div class="controls">
<label>direction <select id="direction"><option value="request">request</option><option value="response">response</option></select></label>
<label>API <select id="apiKey">${keys}</select></label>
<label>version <select id="apiVersion"></select></label>
<button type="button" id="sample">load the smallest sample</button>
</div>
<p id="status"></p>
${formatLegendHtml()}
<div id="output"></div>
</div>`;
  const scripts = [
    ...(options.descriptions ? ['assets/descriptions.js'] : []), ...(options.catalogue ? ['assets/catalogue.js'] : []),
    `assets/${LIBRARY_SCRIPT}`, `assets/${SITE_SCRIPTS.browser}`,
  ];
  return pageShell('Explain a frame — kafka-wire', body, { depth: 0, scripts });
}

/** The live view: a cluster through `kafka-wire bridge` (src/site/live.ts does the talking). */
export function livePage(): string {
  const body = `<h1>Live view</h1>
<div id="live">
<p>Give the address of a <code>kafka-wire bridge</code> (<code>kafka-wire bridge --listen 127.0.0.1:8080 -b BROKER</code>, with
<code>--allow-origin</code> naming this page's origin): this page lists the cluster's topics, tails one (its last records, then
each new one, decoded as explain shows record data) and produces records, every Kafka connection a WebSocket to the bridge.</p>
<div class="controls">
<label>bridge <input id="bridge" size="32" value="ws://127.0.0.1:8080/" spellcheck="false"></label>
<button type="button" id="connect">connect</button>
<button type="button" id="refresh">refresh topics</button>
</div>
<p id="status"></p>
<h2>Topics</h2>
<table class="frames"><thead><tr><th>topic</th><th>partitions</th><th></th></tr></thead><tbody id="topics"></tbody></table>
<h2>Produce</h2>
<form id="produce" class="controls">
<label>topic <select id="produce-topic"></select></label>
<label>partition <input id="produce-partition" size="3" value="0"></label>
<label>key <input id="produce-key" size="16"></label>
<label>value <input id="produce-value" size="32"></label>
<button type="submit">produce</button>
</form>
<h2>Tail <span id="tailing"></span></h2>
<table class="frames"><thead><tr><th>partition</th><th>offset</th><th>timestamp</th><th>key</th><th>value</th><th>headers</th></tr></thead>
<tbody id="records"></tbody></table>
</div>`;
  return pageShell('Live view — kafka-wire', body, { depth: 0, scripts: [`assets/${LIBRARY_SCRIPT}`, `assets/${SITE_SCRIPTS.live}`] });
}

export function capturePage(): string {
  const body = `<h1>Read a capture</h1>
<div id="capture">
<p>Open a <code>.pcap</code> or <code>.pcapng</code> file (tcpdump, Wireshark, <code>kafka-wire proxy --record</code>).
TCP is reassembled and every Kafka frame decoded in this page; nothing is uploaded. Pick a frame to see its
annotated tree and its bytes; hovering either lights the same field in both.</p>
<div id="drop">drop a capture here, or <input type="file" id="file" accept=".pcap,.pcapng,.cap"></div>
<p id="status"></p>
<div class="framelist"><table class="frames"><thead><tr><th>#</th><th>API</th><th>v</th><th>corr</th><th>size</th><th>ms</th><th>error</th><th>time</th><th>connection</th></tr></thead>
<tbody id="frames"></tbody></table></div>
${formatLegendHtml()}
<div id="detail"></div>
</div>`;
  return pageShell('Read a capture — kafka-wire', body, { depth: 0, scripts: [`assets/${LIBRARY_SCRIPT}`, `assets/${SITE_SCRIPTS['capture-page']}`] });
}

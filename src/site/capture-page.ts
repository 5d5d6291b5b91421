// Browser entry of assets/capture.js: the capture page. A .pcap/.pcapng file chosen or dropped is
// read in the page (nothing is uploaded) into Wireshark's three panes: the frame list, the
// selected frame's annotated tree (collapsible), and its bytes as hex and ASCII, the hovered field
// lit in both; a frame with records also gets their decompressed contents.
import {
  buildExplainTree, decodeRecordBatches, decodeRequest, decodeResponse, escapeHtml, findApi, formatCaptureTime, formatNodeLine,
  hexLayout, readCaptureStream, type CaptureEvent, type CaptureFrame, type ExplainNode, type ExplainTree,
} from './library.js';
import { attachAll } from './hover.js';

/** Grid cells beyond this many bytes are left out (the tree still covers everything). */
const GRID_LIMIT = 64 * 1024;

/** Each byte's two hex digits. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const hexByte = (b: number) => HEX_BYTES[b];

function categoryClass(category: string): string {
  return 'cat-' + category.toLowerCase().replace(/[^a-z]+/g, '-');
}

function apiLabel(frame: CaptureFrame): string {
  return frame.apiKey === null ? 'unpaired' : findApi(frame.apiKey)?.name ?? `key ${frame.apiKey}`;
}

/** The tree as nested <details>, each node's line carrying data-n/o/s as the hover script reads them. */
function treeHtml(root: ExplainNode): string {
  let index = 0;
  const node = (n: ExplainNode): string => {
    const attrs = `class="line ${categoryClass(n.category)}" data-n="${index++}" data-o="${n.offset}" data-s="${n.size}"${n.inflated ? ' data-i="1"' : ''}`;
    const line = `<span ${attrs}>${escapeHtml(formatNodeLine(n))}</span>`;
    if (n.children.length === 0) return `<div class="leaf">${line}</div>`;
    return `<details open><summary>${line}</summary>${n.children.map(node).join('')}</details>`;
  };
  return `<div class="tree ctree">${node(root)}</div>`;
}

/** Hex and ASCII columns, `perRow` bytes a row; every cell names its node (data-n) and offset (data-o). */
function bytesHtml(frame: Uint8Array, tree: ExplainTree, perRow: number): string {
  const cells = hexLayout(frame, tree).rows.flatMap((r) => r.bytes).slice(0, GRID_LIMIT);
  let out = `<div class="hexgrid cgrid" style="--per-row:${perRow}">`;
  for (let at = 0; at < cells.length; at += perRow) {
    const row = cells.slice(at, at + perRow);
    out += `<div class="hexrow"><span class="off">${at.toString(16).padStart(4, '0')}</span><div class="hex">`;
    for (const b of row) out += `<span class="b ${categoryClass(b.category)}" data-n="${b.node}" data-o="${b.offset}">${hexByte(b.value)}</span>`;
    out += '</div><div class="ascii">';
    for (const b of row) {
      const c = b.value >= 0x20 && b.value < 0x7f ? escapeHtml(String.fromCharCode(b.value)) : '.';
      out += `<span class="b ${categoryClass(b.category)}" data-n="${b.node}" data-o="${b.offset}">${c}</span>`;
    }
    out += '</div></div>';
  }
  if (frame.length > cells.length) out += `<div class="hexmore">${frame.length - cells.length} more bytes not shown</div>`;
  return out + '</div>';
}

/** Each decompressed record's key and value, as text and as bytes. */
function recordsHtml(frame: CaptureFrame): string {
  let decoded: { body: any };
  try {
    decoded = frame.direction === 'request'
      ? decodeRequest(frame.bytes)
      : decodeResponse(frame.bytes, frame.apiKey!, frame.apiVersion!);
  } catch {
    return '';
  }
  const fields: Uint8Array[] = [];
  const visit = (v: unknown) => {
    if (v instanceof Uint8Array) return;
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'records' && x instanceof Uint8Array && x.length > 0) fields.push(x);
        else visit(x);
      }
    }
  };
  visit(decoded.body);
  if (fields.length === 0) return '';
  let out = '<h3>records, decompressed</h3><div class="records">';
  for (const bytes of fields) {
    try {
      for (const batch of decodeRecordBatches(bytes).batches) {
        const n = batch.records.length;
        out += `<p class="batch">batch at offset ${batch.baseOffset}, ${batch.compression}, ${n} record${n === 1 ? '' : 's'}</p>`
          + '<table class="recs"><tr><th>offset</th><th>timestamp</th><th>key</th><th>value</th><th>headers</th><th>value bytes</th></tr>';
        for (const r of batch.records) {
          const text = (b: Uint8Array | null) => (b === null ? '<i>null</i>' : escapeHtml(new TextDecoder().decode(b)));
          const hex = r.value === null ? '' : Array.from(r.value.subarray(0, 256), hexByte).join(' ') + (r.value.length > 256 ? ' …' : '');
          const headers = r.headers.map((h) => `${escapeHtml(h.key)}=${text(h.value)}`).join('<br>');
          const time = new Date(Number(r.timestamp)).toISOString();
          out += `<tr><td data-label="offset">${r.offset}</td><td data-label="timestamp">${r.timestamp} <span class="muted">${time}</span></td>`
            + `<td data-label="key">${text(r.key)}</td><td data-label="value">${text(r.value)}</td><td data-label="headers">${headers}</td>`
            + `<td class="mono" data-label="value bytes">${hex}</td></tr>`;
        }
        out += '</table>';
      }
    } catch (error) {
      out += `<p class="error">${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`;
    }
  }
  return out + '</div>';
}

function init(): void {
  const root = document.getElementById('capture');
  if (root === null) return;
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const fileInput = $<HTMLInputElement>('file');
  const drop = $<HTMLDivElement>('drop');
  const status = $<HTMLParagraphElement>('status');
  const list = $<HTMLTableSectionElement>('frames');
  const detail = $<HTMLDivElement>('detail');
  let frames: CaptureFrame[] = [];

  const show = (message: string, error: boolean) => {
    status.textContent = message;
    status.className = error ? 'error' : '';
  };

  const select = (i: number) => {
    for (const row of list.querySelectorAll('tr.sel')) row.classList.remove('sel');
    list.querySelector(`tr[data-i="${i}"]`)?.classList.add('sel');
    const frame = frames[i];
    let tree: ExplainTree;
    try {
      if (frame.apiKey === null) throw new Error(`no request with correlation id ${frame.correlationId} in the capture: the response cannot be decoded`);
      tree = buildExplainTree(frame.bytes, { direction: frame.direction, apiKey: frame.apiKey, apiVersion: frame.apiVersion! });
    } catch (error) {
      detail.innerHTML = `<p class="error">${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`;
      return;
    }
    const perRow = detail.clientWidth < 560 ? 8 : 16;
    detail.innerHTML = `<div class="explain panes"><div class="pane"><h3>${escapeHtml(tree.messageName)} v${tree.apiVersion}, ${frame.bytes.length} bytes</h3>${treeHtml(tree.root)}</div>`
      + `<div class="pane"><h3>bytes</h3>${bytesHtml(frame.bytes, tree, perRow)}</div></div>${recordsHtml(frame)}`;
    attachAll(detail);
  };

  const load = async (file: File) => {
    show(`reading ${file.name}…`, false);
    frames = [];
    list.innerHTML = '';
    detail.innerHTML = '';
    const notes: string[] = [];
    const rows: string[] = [];
    try {
      const events = readCaptureStream(file.stream());
      for (;;) {
        const next = await events.next();
        if (next.done === true) break;
        const e: CaptureEvent = next.value;
        if (e.type === 'note') { notes.push(`${e.conn}: ${e.message}`); continue; }
        const i = frames.push(e) - 1;
        const latency = e.latencyNs === undefined ? '' : (Number(e.latencyNs) / 1e6).toFixed(3);
        const problem = e.unpaired === true ? 'unpaired' : '';
        // The API first after the number: at a phone's width the connection and time scroll out of view, not it.
        rows.push(`<tr data-i="${i}" class="${e.direction}"><td>${i + 1}</td>`
          + `<td class="api">${e.direction === 'request' ? '→' : '←'} ${escapeHtml(apiLabel(e))}</td><td>${e.apiVersion ?? ''}</td>`
          + `<td>${e.correlationId}</td><td>${e.bytes.length}</td><td>${latency}</td><td class="error">${problem}</td>`
          + `<td>${formatCaptureTime(e.timeNs, e.timeDigits).slice(11)}</td><td>${escapeHtml(e.conn)}</td></tr>`);
      }
    } catch (error) {
      notes.push(error instanceof Error ? error.message : String(error));
    }
    list.innerHTML = rows.join('');
    show(`${file.name}: ${frames.length} frames${notes.length > 0 ? `; ${notes.length} notes: ${notes.slice(0, 3).join('; ')}` : ''}`, notes.length > 0 && frames.length === 0);
    if (frames.length > 0) select(0);
  };

  list.addEventListener('click', (event) => {
    const row = (event.target as HTMLElement).closest<HTMLTableRowElement>('tr[data-i]');
    if (row !== null) select(Number(row.dataset.i));
  });
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file !== undefined) void load(file);
  });
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const file = event.dataTransfer?.files?.[0];
    if (file !== undefined) void load(file);
  });
  root.dataset.ready = 'true';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();

// Browser entry of assets/kafka-wire.js: the interactive explorer page (paste hex or drop a file,
// pick direction/key/version, see the grid and the tree), decoded by the same WebAssembly codec.
// The codec's WebAssembly ships inside the bundle as base64, so nothing is fetched: the page works
// from file://. Descriptions come from assets/descriptions.js when the site was built with schemas.
import { apis } from '../generated/catalogue.js';
import { peekRequest, type Direction } from '../codec/by-key.js';
import { descriptionsFrom, type DescriptionTable, type Descriptions } from '../explain/descriptions.js';
import { buildExplainTree, type ExplainTree } from '../explain/tree.js';
import { formatExplainText } from '../explain/format.js';
import { escapeHtml, formatHexHtml, formatTreeHtml, hexLayout, isHexText, parseHexInput, spacedHex } from '../explain/hex.js';
import { sampleFrame } from '../explain/samples.js';
import { attachAll } from './hover.js';

declare global {
  interface Window {
    KAFKA_WIRE_DESCRIPTIONS?: DescriptionTable;
    kafkaWire?: unknown;
  }
}

/** Grid cells beyond this many bytes are left out (the tree still covers everything). */
const GRID_LIMIT = 64 * 1024;

function descriptions(): Descriptions | undefined {
  const table = window.KAFKA_WIRE_DESCRIPTIONS;
  return table === undefined ? undefined : descriptionsFrom(table);
}

export function explainHex(hex: string, options: { direction: Direction; apiKey?: number; apiVersion?: number }): ExplainTree {
  const frame = parseHexInput(hex);
  if (frame === null) throw new Error('not hex: expected pairs of hex digits');
  return buildExplainTree(frame, { ...options, descriptions: descriptions() });
}


function init(): void {
  const root = document.getElementById('explorer');
  if (root === null) return;
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const hexInput = $<HTMLTextAreaElement>('hex');
  const fileInput = $<HTMLInputElement>('file');
  const drop = $<HTMLDivElement>('drop');
  const directionSelect = $<HTMLSelectElement>('direction');
  const keySelect = $<HTMLSelectElement>('apiKey');
  const versionSelect = $<HTMLSelectElement>('apiVersion');
  const sampleButton = $<HTMLButtonElement>('sample');
  const status = $<HTMLParagraphElement>('status');
  const output = $<HTMLDivElement>('output');

  const fillVersions = (wanted?: number) => {
    const api = apis.find((a) => a.apiKey === Number(keySelect.value)) ?? apis[0];
    const [min, max] = api.request.validVersions;
    const keep = wanted ?? Number(versionSelect.value);
    versionSelect.innerHTML = '';
    for (let v = min; v <= max; v++) versionSelect.add(new Option(`v${v}`, String(v)));
    versionSelect.value = String(keep >= min && keep <= max ? keep : max);
  };

  const show = (message: string, error: boolean) => {
    status.textContent = message;
    status.className = error ? 'error' : '';
  };

  const render = () => {
    const text = hexInput.value;
    const direction = directionSelect.value as Direction;
    keySelect.disabled = versionSelect.disabled = false;
    if (text.trim() === '') {
      show('', false);
      output.innerHTML = '';
      return;
    }
    const frame = parseHexInput(text);
    if (frame === null) {
      show('not hex: expected pairs of hex digits (spaces, newlines and 0x prefixes are fine)', true);
      output.innerHTML = '';
      return;
    }
    if (direction === 'request' && frame.length >= 8) {
      // A request names its API in its header: show that, and let the frame decide.
      const { apiKey, apiVersion } = peekRequest(frame);
      if (apis.some((a) => a.apiKey === apiKey)) {
        keySelect.value = String(apiKey);
        fillVersions(apiVersion);
      }
      keySelect.disabled = versionSelect.disabled = true;
    }
    let tree: ExplainTree;
    try {
      tree = buildExplainTree(frame, {
        direction,
        apiKey: direction === 'response' ? Number(keySelect.value) : undefined,
        apiVersion: direction === 'response' ? Number(versionSelect.value) : undefined,
        descriptions: descriptions(),
      });
    } catch (error) {
      show(error instanceof Error ? error.message : String(error), true);
      output.innerHTML = '';
      return;
    }
    show(`${tree.messageName} v${tree.apiVersion}, ${direction} header v${tree.headerVersion}, ${frame.length} bytes on the wire`, false);
    output.innerHTML = `<h3>byte layout (${frame.length} bytes, 16 bytes per row)</h3>`
      + formatHexHtml(hexLayout(frame, tree), { maxBytes: GRID_LIMIT, titles: frame.length <= 8192 })
      + '<h3>object tree</h3>' + formatTreeHtml(tree);
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  hexInput.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(render, 120);
  });
  directionSelect.addEventListener('change', render);
  keySelect.addEventListener('change', () => { fillVersions(); render(); });
  versionSelect.addEventListener('change', render);
  sampleButton.addEventListener('click', () => {
    const direction = directionSelect.value as Direction;
    const frame = sampleFrame(Number(keySelect.value), direction, Number(versionSelect.value));
    hexInput.value = spacedHex(frame);
    render();
  });

  const loadBytes = (bytes: Uint8Array) => {
    const text = new TextDecoder().decode(bytes);
    hexInput.value = bytes.length > 0 && isHexText(text) ? text.trim() : spacedHex(bytes);
    render();
  };
  const readFile = (file: File) => {
    file.arrayBuffer().then((buffer) => loadBytes(new Uint8Array(buffer)), (error) => show(String(error), true));
  };
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file !== undefined) readFile(file);
  });
  for (const target of [drop, hexInput] as HTMLElement[]) {
    target.addEventListener('dragover', (event) => {
      event.preventDefault();
      drop.classList.add('over');
    });
    target.addEventListener('dragleave', () => drop.classList.remove('over'));
    target.addEventListener('drop', (dropEvent) => {
      const event = dropEvent as DragEvent;
      event.preventDefault();
      drop.classList.remove('over');
      const file = event.dataTransfer?.files?.[0];
      if (file !== undefined) readFile(file);
      else {
        const text = event.dataTransfer?.getData('text/plain');
        if (text) { hexInput.value = text; render(); }
      }
    });
  }

  // explore.html#dir=response&key=45&v=0&hex=...
  const params = new URLSearchParams(location.hash.slice(1));
  const dir = params.get('dir');
  if (dir === 'request' || dir === 'response') directionSelect.value = dir;
  const key = params.get('key');
  if (key !== null && apis.some((a) => String(a.apiKey) === key)) keySelect.value = key;
  const v = params.get('v');
  fillVersions(v === null ? undefined : Number(v));
  const hex = params.get('hex');
  if (hex !== null) {
    const bytes = parseHexInput(hex);
    hexInput.value = bytes === null ? hex : spacedHex(bytes);
  }
  render();
  attachAll();
  root.dataset.ready = 'true';
}

window.kafkaWire = {
  explainHex,
  formatExplainText,
  sampleHex: (apiKey: number, direction: Direction, version: number) => spacedHex(sampleFrame(apiKey, direction, version)),
  escapeHtml,
};

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();

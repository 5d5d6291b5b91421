// Browser entry of assets/explore.js: the interactive explorer page (paste hex or drop a file,
// pick direction/key/version, see the grid and the tree), decoded by the same WebAssembly codec:
// the library comes from assets/kafka-wire.js, loaded before this script (./library.ts), whose
// WebAssembly ships inside it as base64, so nothing is fetched: the page works from file://. Descriptions come from assets/descriptions.js when the site was built with schemas,
// APIs beyond the built-in ones from assets/catalogue.js when it was built with a catalogue.
import {
  builtInCatalogue, buildExplainTree, catalogueFromSchemas, descriptionsFrom, escapeHtml, formatExplainText, formatHexHtml,
  formatTreeHtml, hexLayout, isHexText, parseHexInput, peekRequest, sampleFrame, spacedHex,
  type DescriptionTable, type Descriptions, type Direction, type ExplainTree, type SchemaJson,
} from './library.js';
import { framesOf, parseFrameText, parseHexDump } from './frame-input.js';
import { attachAll } from './hover.js';

declare global {
  interface Window {
    KAFKA_WIRE_DESCRIPTIONS?: DescriptionTable;
    KAFKA_WIRE_SCHEMAS?: SchemaJson[];
    kafkaWire?: Record<string, unknown>;
  }
}

/** Grid cells beyond this many bytes are left out (the tree still covers everything). */
const GRID_LIMIT = 64 * 1024;

const schemas = window.KAFKA_WIRE_SCHEMAS;
const catalogue = schemas === undefined ? undefined : catalogueFromSchemas(schemas);
const { apis } = catalogue ?? builtInCatalogue;

function descriptions(): Descriptions | undefined {
  const table = window.KAFKA_WIRE_DESCRIPTIONS;
  return table === undefined ? undefined : descriptionsFrom(table);
}

export function explainHex(hex: string, options: { direction: Direction; apiKey?: number; apiVersion?: number }): ExplainTree {
  const frame = parseHexInput(hex);
  if (frame === null) throw new Error('not hex: expected pairs of hex digits');
  return buildExplainTree(frame, { ...options, descriptions: descriptions(), catalogue });
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
    const bytes = parseFrameText(text);
    if (bytes === null) {
      show('not hex: expected pairs of hex digits (spaces, newlines and 0x prefixes are fine) or a Wireshark hex dump', true);
      output.innerHTML = '';
      return;
    }
    // Several frames back to back are explained one after another; a pasted packet gives its TCP payload.
    const { frames, fromPacket } = framesOf(bytes);
    const first = frames[0];
    if (direction === 'request' && first.length >= 8) {
      // A request names its API in its header: show that, and let the frame decide.
      const { apiKey, apiVersion } = peekRequest(first);
      if (apis.some((a) => a.apiKey === apiKey)) {
        keySelect.value = String(apiKey);
        fillVersions(apiVersion);
      }
      keySelect.disabled = versionSelect.disabled = true;
    }
    // Each frame shows its bytes and its tree; a damaged one as far as it reads (partial), as
    // Wireshark does, with the error beside it.
    const sections: string[] = [];
    const summaries: string[] = [];
    let failed = false;
    for (const [i, frame] of frames.entries()) {
      let tree: ExplainTree | undefined;
      let summary: string;
      try {
        tree = buildExplainTree(frame, {
          direction,
          apiKey: direction === 'response' ? Number(keySelect.value) : undefined,
          apiVersion: direction === 'response' ? Number(versionSelect.value) : undefined,
          descriptions: descriptions(),
          catalogue,
          partial: true,
        });
        summary = tree.error !== undefined
          ? tree.error.message
          : `${tree.messageName} v${tree.apiVersion}, ${direction} header v${tree.headerVersion}, ${frame.length} bytes on the wire`;
        if (tree.error !== undefined) failed = true;
      } catch (error) {
        summary = error instanceof Error ? error.message : String(error);
        failed = true;
      }
      const read = tree !== undefined && tree.error === undefined;
      summaries.push(frames.length === 1 || read ? summary : `frame ${i + 1}: ${summary}`);
      const title = tree === undefined ? '' : `: ${escapeHtml(tree.messageName)}`;
      sections.push((frames.length > 1 ? `<h2>frame ${i + 1}${title}</h2>` : '')
        + `<div class="explain"><h3>byte layout (${frame.length} bytes, 16 bytes per row)</h3>`
        + formatHexHtml(hexLayout(frame, tree), { maxBytes: GRID_LIMIT, titles: frame.length <= 8192 })
        + (tree === undefined ? '' : '<h3>object tree</h3>' + formatTreeHtml(tree)) + '</div>');
    }
    const from = fromPacket ? ' (from the packet\'s TCP payload)' : '';
    show(frames.length === 1 ? summaries[0] + from : `${frames.length} frames${from}: ${summaries.join('; ')}`, failed);
    output.innerHTML = sections.join('');
    attachAll(output);
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
    const frame = sampleFrame(Number(keySelect.value), Number(versionSelect.value), direction, { catalogue });
    hexInput.value = spacedHex(frame);
    render();
  });

  const loadBytes = (bytes: Uint8Array) => {
    const text = new TextDecoder().decode(bytes);
    hexInput.value = bytes.length > 0 && (isHexText(text) || parseHexDump(text) !== null) ? text.trim() : spacedHex(bytes);
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

// The explorer's own helpers join the library on the page's global (for the console, and tests).
window.kafkaWire = Object.assign(window.kafkaWire ?? {}, {
  explainHex,
  formatExplainText,
  sampleHex: (apiKey: number, version: number | Direction, direction: Direction | number) => spacedHex(sampleFrame(apiKey, version, direction, { catalogue })),
  escapeHtml,
});

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();

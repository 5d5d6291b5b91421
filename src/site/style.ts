// The explorer's stylesheet, written to OUTDIR/assets/site.css.
export const SITE_CSS = `
:root {
  --frame: #d9d9d9; --rpc-header: #a9d8ec; --request-body: #bfe6ab; --recordbatch: #f6c690;
  --record: #f6e38f; --response-body: #cdbff3; --tagged-fields: #f3b1c1;
  --ink: #1d1d1f; --muted: #5f6368; --rule: #d6d6d6; --hl: #1a73e8;
}
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0; background: #fafafa; }
header.top { background: #20232a; color: #fff; padding: 10px 24px; display: flex; gap: 20px; align-items: baseline; }
header.top a { color: #cfe3ff; text-decoration: none; }
header.top strong { font-size: 17px; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { margin: 8px 0 4px; }
h2 { margin-top: 32px; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 18px 0 6px; color: var(--muted); font-weight: 600; }
p.intro { max-width: 900px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 18px; margin: 12px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; font-weight: 600; }
nav.versions a, nav.versions span { display: inline-block; padding: 1px 8px; margin: 0 4px 4px 0; border: 1px solid var(--rule); border-radius: 10px; text-decoration: none; font-size: 13px; }
nav.versions span.current { background: #20232a; color: #fff; }
.legend { display: flex; flex-wrap: wrap; gap: 6px; margin: 12px 0; }
.swatch { padding: 1px 8px; border-radius: 3px; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.cat-frame { background: var(--frame); }
.cat-rpc-header { background: var(--rpc-header); }
.cat-request-body { background: var(--request-body); }
.cat-recordbatch { background: var(--recordbatch); }
.cat-record { background: var(--record); }
.cat-response-body { background: var(--response-body); }
.cat-tagged-fields { background: var(--tagged-fields); }
.caption { font-weight: 600; }
.hexgrid { font: 13px/1 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; display: inline-block; border: 1px solid var(--rule); background: #fff; padding: 6px; }
.hexrow { display: flex; }
.hexrow span { width: 26px; height: 22px; display: inline-flex; align-items: center; justify-content: center; margin: 1px; }
.hexrow span.off { width: 52px; justify-content: flex-start; color: var(--muted); }
.hexhead span { color: var(--muted); }
.hexgrid .b { border-radius: 3px; cursor: default; }
.hexgrid .b.hl { outline: 2px solid var(--hl); background-image: linear-gradient(rgba(26,115,232,.25), rgba(26,115,232,.25)); }
.hexmore { color: var(--muted); padding: 4px; }
.hexgrid .hexrow > span.hx, .hexgrid .hexrow > span.as { display: flex; justify-content: flex-start; width: auto; height: auto; margin: 0; }
.hexgrid .hexrow > span.as { margin-left: 10px; }
.hexgrid:not(.cgrid) .hexrow > span.hx { min-width: 448px; } /* a short last row keeps its ASCII under the others */
.hexrow .as span { width: 9px; margin: 1px 0; height: 22px; display: inline-flex; align-items: center; justify-content: center; }
.hexgrid .a { border-radius: 2px; }
.hexgrid .a.hl { outline: 1px solid var(--hl); background-image: linear-gradient(rgba(26,115,232,.25), rgba(26,115,232,.25)); }
a.removed, span.removed, table.index td a.removed { text-decoration: line-through; color: #8a5a00; }
p.removed-note { background: #fff4d6; border: 1px solid #f0c36d; padding: 6px 10px; border-radius: 4px; }
p.search input { font: inherit; padding: 4px 8px; width: min(420px, 100%); }
section.group h2 { margin-top: 24px; }
details.realistic { margin: 12px 0; }
details.realistic summary { cursor: pointer; font-weight: 600; color: var(--muted); }
.muted { color: var(--muted); }
a.pair { margin-left: 10px; }
pre.tree { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #fff; border: 1px solid var(--rule); padding: 8px; overflow-x: auto; }
pre.tree .line { background: none; display: inline-block; min-width: 100%; border-left: 5px solid transparent; padding-left: 6px; }
pre.tree .line.cat-frame { border-left-color: var(--frame); }
pre.tree .line.cat-rpc-header { border-left-color: var(--rpc-header); }
pre.tree .line.cat-request-body { border-left-color: var(--request-body); }
pre.tree .line.cat-recordbatch { border-left-color: var(--recordbatch); }
pre.tree .line.cat-record { border-left-color: var(--record); }
pre.tree .line.cat-response-body { border-left-color: var(--response-body); }
pre.tree .line.cat-tagged-fields { border-left-color: var(--tagged-fields); }
pre.tree .line:hover, pre.tree .line.hl { background: rgba(26,115,232,.16); }
pre.tree .draw { color: #9aa0a6; }
pre.schema { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; background: #fff; border: 1px solid var(--rule); padding: 8px; overflow-x: auto; max-height: 480px; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid var(--rule); padding: 3px 8px; text-align: left; vertical-align: top; font-size: 13.5px; }
th { background: #f0f0f0; }
td.mono, span.mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
table.index td a { text-decoration: none; }
#explorer textarea { width: 100%; min-height: 120px; font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; padding: 8px; }
#explorer .controls { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; margin: 10px 0; }
#drop { border: 2px dashed var(--rule); padding: 14px; text-align: center; color: var(--muted); margin: 8px 0; }
#drop.over { border-color: var(--hl); color: var(--hl); }
#status { min-height: 1.5em; }
.framelist { max-height: 300px; overflow: auto; border: 1px solid var(--rule); background: #fff; }
table.frames { width: 100%; font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; }
table.frames td, table.frames th { border: 0; border-bottom: 1px solid #eee; padding: 2px 6px; white-space: nowrap; font-size: 12.5px; }
table.frames th { position: sticky; top: 0; }
table.frames tr[data-i] { cursor: pointer; }
table.frames tr.response td { color: #3c4043; background: #fbfbff; }
table.frames tr.sel td { background: #d2e3fc; }
.panes { display: grid; grid-template-columns: minmax(0, 1fr) max-content; gap: 16px; margin-top: 12px; }
.pane { min-width: 0; }
.ctree { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #fff; border: 1px solid var(--rule); padding: 6px; overflow-x: auto; }
.ctree details { margin-left: 14px; }
.ctree > details { margin-left: 0; }
.ctree .leaf { margin-left: 28px; }
.ctree summary { cursor: pointer; }
.ctree .line { border-left: 5px solid transparent; padding-left: 4px; white-space: pre-wrap; overflow-wrap: anywhere; }
.ctree .line.hl { background: rgba(26,115,232,.16); }
.cgrid .hexrow span.off { width: 40px; }
.cgrid .hex, .cgrid .ascii { display: flex; }
.cgrid .hex span { width: 22px; }
.cgrid .ascii { margin-left: 8px; }
.cgrid .ascii span { width: 9px; margin: 1px 0; }
.records table.recs td { max-width: 420px; overflow-wrap: anywhere; }
p.error, td.error { color: #b3261e; }
@media (max-width: 600px) {
  main { padding: 12px 8px 32px; }
  header.top { padding: 8px 10px; gap: 12px; flex-wrap: wrap; }
  .panes { grid-template-columns: minmax(0, 1fr); }
  .hexgrid { max-width: 100%; overflow-x: auto; }
  .cgrid .hex span { width: 19px; }
  .hexrow span { margin: 1px 0; }
  /* The byte grid wraps: sixteen narrower cells, then the ASCII column on a line of its own. */
  .hexgrid:not(.cgrid) { display: block; font-size: 11px; padding: 4px; }
  .hexgrid:not(.cgrid) .hexrow { flex-wrap: wrap; }
  .hexgrid:not(.cgrid) .hexrow span { width: 19px; height: 18px; }
  .hexgrid:not(.cgrid) .hexrow span.off { width: 34px; }
  .hexgrid:not(.cgrid) .hexrow > span.hx, .hexgrid:not(.cgrid) .hexrow > span.as { width: auto; height: auto; }
  .hexgrid:not(.cgrid) .hexrow > span.as { margin-left: 34px; }
  .hexgrid:not(.cgrid) .hexrow > span.hx { min-width: 304px; }
  /* Long API names (AlterPartitionReassignments) break rather than push the page wider. */
  h1 { font-size: 24px; overflow-wrap: anywhere; }
  h2, p.caption, dl.facts dd, details.realistic summary { overflow-wrap: anywhere; }
  /* Tables reflow: each row a block, each cell labelled, so nothing scrolls sideways. */
  table.index, table.index tbody, table.index tr, table.index td,
  table.facts, table.facts tbody, table.facts tr, table.facts td,
  table.recs, table.recs tbody, table.recs tr, table.recs td { display: block; width: 100%; }
  table.index thead, table.facts thead, table.recs tr:first-child { display: none; }
  table.index tr, table.facts tr, table.recs tr { border-bottom: 2px solid var(--rule); padding: 4px 0; }
  table.index td, table.facts td, table.recs td { border: 0; padding: 1px 6px; overflow-wrap: anywhere; }
  table.index td::before, table.facts td::before, table.recs td::before { content: attr(data-label) ": "; color: var(--muted); font-family: system-ui, sans-serif; }
  table.facts td:empty, table.index td:empty { display: none; }
  /* The reflowed rows are blocks: a row the search hides must stay hidden. */
  table.index tr[hidden] { display: none; }
  pre.tree, pre.schema { white-space: pre-wrap; overflow-wrap: anywhere; }
  .framelist { overflow-x: auto; }
  #explorer .controls select { max-width: 100%; }
}
#status.error { color: #b3261e; font-weight: 600; }
`;

// Hover linking between the byte grid and the object tree of an `.explain` block: hovering a
// byte highlights its field's line and bytes, hovering a line highlights its bytes. Browser-only.

function attachHover(container: HTMLElement): void {
  if (container.dataset.hover === 'on') return;
  container.dataset.hover = 'on';
  let lit: HTMLElement[] = [];
  // Cells by byte offset: a grid may show each byte more than once (hex and ASCII columns).
  let bytes: Map<number, HTMLElement[]> | null = null;
  let lastOffset = -1;
  let lines: Map<string, HTMLElement> | null = null;
  const index = () => {
    bytes = new Map();
    for (const b of container.querySelectorAll<HTMLElement>('.hexgrid .b, .hexgrid .a')) {
      const offset = Number(b.dataset.o);
      lastOffset = Math.max(lastOffset, offset);
      const cells = bytes.get(offset);
      if (cells === undefined) bytes.set(offset, [b]);
      else cells.push(b);
    }
    lines = new Map();
    for (const line of container.querySelectorAll<HTMLElement>('.tree .line')) lines.set(line.dataset.n!, line);
  };
  const clear = () => {
    for (const e of lit) e.classList.remove('hl');
    lit = [];
  };
  const light = (n: string) => {
    clear();
    if (bytes === null) index();
    const line = lines!.get(n);
    if (line === undefined) return;
    line.classList.add('hl');
    lit.push(line);
    if (line.dataset.i === '1') return; // decompressed records: no frame bytes
    const offset = Number(line.dataset.o);
    const end = Math.min(lastOffset + 1, offset + Number(line.dataset.s));
    for (let i = offset; i < end; i++) {
      for (const b of bytes!.get(i) ?? []) {
        b.classList.add('hl');
        lit.push(b);
      }
    }
  };
  container.addEventListener('mouseover', (event) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-n]');
    if (target === null || !container.contains(target) || target.dataset.n === '-1') return;
    light(target.dataset.n!);
  });
  container.addEventListener('mouseleave', clear);
  // A re-render replaces the grid and tree: forget the cached elements.
  new MutationObserver(() => { bytes = null; lit = []; }).observe(container, { childList: true, subtree: true });
}

export function attachAll(root: ParentNode = document): void {
  for (const container of root.querySelectorAll<HTMLElement>('.explain')) attachHover(container);
}

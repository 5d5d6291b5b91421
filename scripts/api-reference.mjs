// Writes the API reference, docs/api/*.md, from the declarations every entry of package.json's
// exports reaches (dist/src/**/*.d.ts, after `npm run build`): one page per entry with its exported
// functions, classes, interfaces, types and constants, each with its signature and doc comment.
// `node scripts/api-reference.mjs [OUTDIR]` (default docs/api). test/api-reference.test.ts
// regenerates it and fails when the committed pages differ. It reads the declarations with the
// TypeScript 5 compiler API (the `typescript-5.9` package: TypeScript 7, the project's compiler,
// has no JavaScript API), which is also why TypeDoc cannot run here.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript-5.9';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = process.argv[2] ?? join(root, 'docs', 'api');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Each entry with declarations: its specifier, its page's file name, its .d.ts files. */
const entries = Object.entries(pkg.exports).flatMap(([subpath, target]) => {
  const types = target?.import?.types;
  if (types === undefined) return [];
  const specifier = `${pkg.name}${subpath.slice(1)}`;
  const page = `${specifier.replace(/\/\*$/, '').replace(/\//g, '-')}.md`;
  let files = [join(root, types)];
  if (types.includes('*')) {
    const [dir, suffix] = [join(root, types.slice(0, types.indexOf('*'))), types.slice(types.indexOf('*') + 1)];
    files = readdirSync(dir).filter((f) => f.endsWith(suffix)).sort().map((f) => join(dir, f));
  }
  return [{ specifier, page, files }];
});

const program = ts.createProgram(entries.flatMap((e) => e.files), {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true, skipLibCheck: true, noEmit: true, types: ['node'], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
});
const checker = program.getTypeChecker();
const generatedDir = join(root, 'dist', 'src', 'generated') + '/';
const printer = ts.createPrinter({ removeComments: true });

/** A symbol's doc comment as Markdown: its text, then its @param/@returns/@example/@deprecated tags. */
function docOf(symbol) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const tags = symbol.getJsDocTags(checker).map((tag) => {
    const body = ts.displayPartsToString(tag.text ?? []).trim();
    return `- \`@${tag.name}\`${body ? ` ${body.replace(/\n/g, ' ')}` : ''}`;
  });
  return [text, tags.join('\n')].filter(Boolean).join('\n\n');
}

/** A declaration's text without its body or comments, on at most a few hundred characters. */
function declarationText(node) {
  let text = printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile()).trim();
  text = text.replace(/^export (declare )?/, '').replace(/^declare /, '');
  return text.length > 600 ? `${text.slice(0, 600)} …` : text;
}

/** The members of a class or interface worth a line each: public, with their doc comments. */
function membersOf(symbol, decl) {
  const lines = [];
  for (const member of decl.members ?? []) {
    if (member.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
    if (member.name && ts.isPrivateIdentifier(member.name)) continue;
    const memberSymbol = member.symbol ?? (member.name && checker.getSymbolAtLocation(member.name));
    const doc = memberSymbol ? docOf(memberSymbol).replace(/\n+/g, ' ') : '';
    lines.push(`- \`${declarationText(member).replace(/\s*\n\s*/g, ' ').replace(/`/g, "'")}\`${doc ? `: ${doc}` : ''}`);
  }
  return lines;
}

const KINDS = [
  [ts.SyntaxKind.FunctionDeclaration, 'Functions'], [ts.SyntaxKind.ClassDeclaration, 'Classes'],
  [ts.SyntaxKind.InterfaceDeclaration, 'Interfaces'], [ts.SyntaxKind.TypeAliasDeclaration, 'Types'],
  [ts.SyntaxKind.EnumDeclaration, 'Enums'], [ts.SyntaxKind.VariableDeclaration, 'Constants'],
];

/** One entry's page. */
function page(entry) {
  const sections = new Map(KINDS.map(([, title]) => [title, []]));
  const generated = [];
  const seen = new Set();
  for (const file of entry.files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`no declarations at ${file}: run npm run build first`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    for (const exported of checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name))) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decls = symbol.declarations ?? [];
      if (decls.length === 0 || seen.has(exported.name)) continue;
      seen.add(exported.name);
      if (decls[0].getSourceFile().fileName.startsWith(generatedDir) && entry.files.length === 1 && !file.startsWith(generatedDir)) {
        generated.push(exported.name);
        continue;
      }
      const kind = KINDS.find(([k]) => decls.some((d) => d.kind === k));
      if (kind === undefined) continue;
      const shown = decls.filter((d) => d.kind === kind[0]);
      const from = relative(join(root, 'dist'), shown[0].getSourceFile().fileName).replace(/\.d\.ts$/, '.ts');
      const signatures = kind[0] === ts.SyntaxKind.VariableDeclaration
        ? [`const ${exported.name}: ${checker.typeToString(checker.getTypeOfSymbol(symbol), undefined, ts.TypeFormatFlags.NoTruncation).slice(0, 600)}`]
        : kind[0] === ts.SyntaxKind.ClassDeclaration || kind[0] === ts.SyntaxKind.InterfaceDeclaration
          ? [declarationText(shown[0]).replace(/\{[\s\S]*$/, '').trim()]
          : shown.map(declarationText);
      const lines = [`### ${exported.name}`, '', '```ts', ...signatures, '```', ''];
      const doc = docOf(symbol);
      if (doc) lines.push(doc, '');
      if (kind[0] === ts.SyntaxKind.ClassDeclaration || kind[0] === ts.SyntaxKind.InterfaceDeclaration) {
        const members = membersOf(symbol, shown[0]);
        if (members.length > 0) lines.push(...members, '');
      }
      lines.push(`<sub>Declared in \`${from}\`.</sub>`, '');
      sections.get(kind[1]).push(lines.join('\n'));
    }
  }
  const out = [`# \`${entry.specifier}\``, '', `Generated from the declarations by \`node scripts/api-reference.mjs\`; do not edit. [All entries](README.md).`, ''];
  if (entry.files.length > 1) out.push(`One module per API: \`${entry.specifier.replace('*', '<Name>')}\` (${entry.files.length} of them), each exporting its definition (\`metadataApi\` in \`${entry.specifier.replace('*', 'Metadata')}\`) and its messages' types.`, '');
  for (const [title, items] of sections) if (items.length > 0) out.push(`## ${title}`, '', ...items);
  if (generated.length > 0) {
    out.push('## Message types', '', `${generated.length} types generated from Kafka's message schemas (a request's, a response's and their structs', per API, in the schema's field names with the first letter lower-cased): ${generated.slice(0, 12).map((n) => `\`${n}\``).join(', ')}, …`, '');
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const index = ['# API reference', '', 'One page per entry of the package, generated from its type declarations by `node scripts/api-reference.mjs` (after `npm run build`); test/api-reference.test.ts fails when these pages are stale. Back to the [README](../../README.md).', ''];
for (const entry of entries) {
  writeFileSync(join(outDir, entry.page), page(entry));
  index.push(`- [\`${entry.specifier}\`](${entry.page})`);
}
writeFileSync(join(outDir, 'README.md'), index.join('\n') + '\n');
console.log(`${entries.length} entries written to ${relative(root, outDir) || outDir}`);

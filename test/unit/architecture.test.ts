import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../lambdas/extract/engine/registry.ts';

// The layering the folders promise (README "How it is built"), read from the
// source: core asks the format registry instead of naming formats; the
// engine and core never reach AWS; the extraction engine's modules form no
// cycle; a format folder reaches others only through the engine and the
// containers.

const ROOT = path.resolve(import.meta.dirname, '../..');
const CORE = path.join(ROOT, 'lambdas/core');
const EXTRACT = path.join(ROOT, 'lambdas/extract');
const FORMATS_DIR = path.join(EXTRACT, 'formats');

/** "text" and "markdown" are also the API's output modes (config.output), which core does name. */
const OUTPUT_MODES = new Set(['text', 'markdown']);

interface Source {
  file: string;
  ast: ts.SourceFile;
}

function sources(dir: string): Source[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) return [];
    const file = path.join(entry.parentPath, entry.name);
    return [{ file, ast: ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true) }];
  });
}

interface ImportRef {
  specifier: string;
  /** Erased when compiled: `import type`, or named imports that are all types. */
  typeOnly: boolean;
}

function imports({ ast }: Source): ImportRef[] {
  const found: ImportRef[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnly(node) });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return found;
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    return node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

const resolve = (from: string, specifier: string) => (specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null);

/** The format folder a file is in (formats/<family>/...), or null. */
const familyOf = (file: string) => (file.startsWith(FORMATS_DIR + path.sep) ? path.relative(FORMATS_DIR, file).split(path.sep)[0]! : null);

function formatNamesIn(source: Source, names: Set<string>): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && names.has(node.text)) {
      const { line } = source.ast.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${path.relative(ROOT, source.file)}:${line + 1} '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source.ast);
  return found;
}

function importCycles(files: Source[]): string[][] {
  const graph = new Map(
    files.map((s) => [
      s.file,
      imports(s)
        .filter((i) => !i.typeOnly)
        .map((i) => resolve(s.file, i.specifier))
        .filter((f): f is string => f !== null && f.startsWith(EXTRACT + path.sep)),
    ]),
  );
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const walk = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => path.relative(EXTRACT, f)));
      else if (!state.has(next)) walk(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) walk(file);
  return cycles;
}

function crossFamilyImports(files: Source[]): string[] {
  return files.flatMap((s) => {
    const family = familyOf(s.file);
    if (!family) return [];
    return imports(s).flatMap(({ specifier }) => {
      const target = resolve(s.file, specifier);
      const other = target && familyOf(target);
      return other && other !== family ? [`${path.relative(ROOT, s.file)} imports ${specifier}`] : [];
    });
  });
}

const core = sources(CORE);
const extract = sources(EXTRACT);
const formatNames = new Set(FORMATS.map((f) => f.name).filter((n) => !OUTPUT_MODES.has(n)));

describe('the architecture', () => {
  it('keeps format names out of core, which asks the registry what a format can do', () => {
    const named = core.flatMap((s) => formatNamesIn(s, formatNames));
    expect(named).toEqual([]);
  });

  it('keeps the AWS SDK out of core and the extraction engine (adapters reach AWS)', () => {
    const aws = [...core, ...extract].flatMap((s) =>
      imports(s)
        .filter((i) => i.specifier.startsWith('@aws-sdk/'))
        .map((i) => `${path.relative(ROOT, s.file)} imports ${i.specifier}`),
    );
    expect(aws).toEqual([]);
  });

  it('has no import cycle among the extraction engine, containers and formats', () => {
    expect(importCycles(extract)).toEqual([]);
  });

  it('lets a format folder reach another format only through the engine or the containers', () => {
    expect(crossFamilyImports(extract)).toEqual([]);
  });

  it('fails on each kind of violation (the checks can fail)', () => {
    const fake = (rel: string, text: string): Source => {
      const file = path.join(ROOT, rel);
      return { file, ast: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true) };
    };
    expect(formatNamesIn(fake('lambdas/core/x.ts', "if (format === 'pdf') cut();"), formatNames)).toHaveLength(1);
    expect(formatNamesIn(fake('lambdas/core/x.ts', "// 'pdf' in a comment\nconst output = 'markdown';"), formatNames)).toEqual([]);
    const a = fake('lambdas/extract/engine/a.ts', "import { b } from './b.ts';");
    const b = fake('lambdas/extract/engine/b.ts', "import { a } from './a.ts';");
    const bTypes = fake('lambdas/extract/engine/b.ts', "import type { A } from './a.ts';");
    expect(importCycles([a, b])).toHaveLength(1);
    expect(importCycles([a, bTypes])).toEqual([]);
    expect(crossFamilyImports([fake('lambdas/extract/formats/odf/x.ts', "import { y } from '../ooxml/y.ts';")])).toHaveLength(1);
    expect(crossFamilyImports([fake('lambdas/extract/formats/odf/x.ts', "import { y } from '../../engine/y.ts';")])).toEqual([]);
  });
});

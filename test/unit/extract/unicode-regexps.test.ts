import fs from 'node:fs';
import path from 'node:path';
import { transformSync } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// esbuild, which tsx and every build here run the sources through, writes a
// regular expression literal with a Unicode property escape (`\p{L}`) as
// `new RegExp(...)` for any Node target: written inside a function, it is
// built again at each call, about six times the cost of the test it makes
// (lambdas/extract/engine/letters.ts). The per-word and per-line rules of
// the readers make millions of such tests a corpus pass, so they are module
// constants. `npm start` and the Lambda bundles also tell esbuild to keep
// them as literals; tsx cannot be told.

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Whether esbuild writes this literal as `new RegExp(...)` (it keeps a property inside a character class as it is). */
const rewritten = (literal: string) => transformSync(`x = ${literal};`, { loader: 'ts', target: 'node20' }).code.includes('new RegExp(');

/** `file:line` of each regular expression literal inside a function that esbuild rewrites into a RegExp built per call. */
function propertyRegexpsInFunctions(file: string, text: string): string[] {
  const ast = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node, inFunction: boolean) => {
    if (ts.isRegularExpressionLiteral(node) && inFunction && /\\[pP]\{/.test(node.text) && rewritten(node.text)) {
      found.push(`${path.relative(ROOT, file)}:${ast.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.text}`);
    }
    ts.forEachChild(node, (child) => visit(child, inFunction || ts.isFunctionLike(node)));
  };
  visit(ast, false);
  return found;
}

const lambdaSources = () =>
  fs
    .readdirSync(path.join(ROOT, 'lambdas'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));

describe('regular expressions with Unicode properties', () => {
  it('are module constants in the service code, never built per call', () => {
    const found = lambdaSources().flatMap((file) => propertyRegexpsInFunctions(file, fs.readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('are what esbuild rewrites into a RegExp per evaluation, which the check finds inside a function', () => {
    const source = 'export const LETTER = /\\p{L}/u;\nexport function lettersOnly(s: string) { return /^\\p{L}+$/u.test(s) && LETTER.test(s); }\n';
    expect(transformSync(source, { loader: 'ts', target: 'node20' }).code).toContain('new RegExp("^\\\\p{L}+$", "u").test(s)');
    expect(propertyRegexpsInFunctions(path.join(ROOT, 'lambdas/x.ts'), source)).toEqual(['lambdas/x.ts:2 /^\\p{L}+$/u']);
  });
});

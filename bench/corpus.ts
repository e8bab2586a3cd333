// The shared document corpus the benchmarks read (`../shared/corpus` beside
// the project, or a folder given on the command line). A user's clone has
// none: a benchmark that needs it says so and measures nothing.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The corpus folder: the command line's first argument, else `../shared/corpus`; exits saying so where there is none. */
export function corpusDir(bench: string): string {
  const corpus = process.argv[2] ?? join(import.meta.dirname, '..', '..', 'shared', 'corpus');
  if (!existsSync(corpus)) {
    console.log(`${bench}: no corpus at ${corpus}; nothing measured.`);
    process.exit(0);
  }
  return corpus;
}

/** Every file under `dir`, in its folders too. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

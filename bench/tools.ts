// What the benchmarks install and run beside docex: Debian packages with
// apt-get (LibreOffice, pandoc, poppler, TeX), Python libraries with pip into
// a venv in the benchmark's cache, and LibreOffice headless conversions.
// Never used by `npm test`.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const FONT_PACKAGES = ['fonts-dejavu', 'fonts-noto-core', 'fonts-liberation2'];

/** The tools of a benchmark whose cache is `cache` and which reports through `log`. */
export function benchTools(cache: string, log: (s: string) => void) {
  const have = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  let aptUpdated = false;

  /** Installs Debian packages; false when that cannot be done here. */
  function aptInstall(what: string, pkgs: string[]): boolean {
    if (!have('apt-get') || process.getuid?.() !== 0) {
      log(`${what} is missing and cannot be installed here (apt-get as root); install ${pkgs.join(' ')}.`);
      return false;
    }
    log(`${what} is missing: installing ${pkgs.join(' ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    try {
      if (!aptUpdated) execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
      aptUpdated = true;
      execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], { stdio: ['ignore', 'ignore', 'inherit'], env });
      return true;
    } catch (err) {
      log(`apt-get install ${pkgs.join(' ')} failed: ${(err as Error).message.split('\n')[0]}`);
      return false;
    }
  }

  /** LibreOffice with Writer (and, when `more` names them, Calc or Impress) and the fonts the generated documents use. */
  function ensureSoffice(more: Array<'calc' | 'impress'> = []): boolean {
    if (!have('soffice') && !aptInstall('LibreOffice (soffice)', ['libreoffice-writer-nogui', ...FONT_PACKAGES])) return false;
    for (const app of more) {
      const pkg = `libreoffice-${app}-nogui`;
      if (spawnSync('dpkg', ['-s', `libreoffice-${app}`], { stdio: 'ignore' }).status !== 0 && spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status !== 0) aptInstall(`LibreOffice ${app}`, [pkg]);
    }
    const families = spawnSync('fc-list', [':', 'family'], { encoding: 'utf8' }).stdout ?? '';
    if (!['DejaVu Sans', 'Liberation Serif', 'Noto Sans Hebrew', 'Noto Sans Arabic'].every((f) => families.includes(f))) aptInstall('fonts for the generated documents', FONT_PACKAGES);
    return have('soffice');
  }

  /** The cache's venv's python with `module` importable, pip-installing `pkg` into it when missing; null when that cannot be done. */
  function ensurePythonModule(module: string, pkg: string): string | null {
    const venv = join(cache, 'venv');
    const python = join(venv, 'bin', 'python');
    if (existsSync(python) && spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0) return python;
    if (!have('python3')) {
      log('python3 is missing: no generated documents.');
      return null;
    }
    log(`installing ${pkg} with pip into ${venv}`);
    try {
      if (!existsSync(python)) execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
      execFileSync(python, ['-m', 'pip', 'install', '-q', pkg], { stdio: 'inherit' });
      return python;
    } catch (err) {
      log(`${pkg} could not be installed: ${(err as Error).message.split('\n')[0]}`);
      return null;
    }
  }

  /** LibreOffice headless with a profile of its own (so a desktop LibreOffice or another run does not collide). */
  function soffice(convertTo: string, outdir: string, files: string[], timeoutMs: number, infilter?: string): void {
    mkdirSync(outdir, { recursive: true });
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${join(cache, 'lo-profile')}`,
        '--headless',
        '--norestore',
        ...(infilter ? [`--infilter=${infilter}`] : []),
        '--convert-to',
        convertTo,
        '--outdir',
        outdir,
        ...files,
      ],
      { stdio: 'ignore', timeout: timeoutMs },
    );
  }

  return { have, aptInstall, ensureSoffice, ensurePythonModule, soffice };
}

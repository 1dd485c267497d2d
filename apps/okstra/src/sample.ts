import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { pathArg, type Io } from '@okstra/cli-kit';

/** The provider CLIs the sample's run-manifests name (examples/sample-project); each gets a stub. */
export const SAMPLE_PROVIDERS = ['claude', 'codex', 'grok'] as const;
/** The folder under the sample that holds the stubs (put first on PATH). */
export const STUB_BIN = 'stub-bin';
/** The log the stubs append their argv to, one line per call, in the sample folder. */
export const STUB_LOG = 'stub-calls.log';

/**
 * The sample project shipped with the package: `dist/examples/sample-project`
 * beside the bundle (copied there by the build, tools/ship-texts.mjs), or the
 * repository's examples/sample-project when run from source.
 */
function shippedSample(): string {
  for (const rel of ['./examples/sample-project', '../../../examples/sample-project']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(join(dir, '.okstra'))) return dir;
  }
  throw new Error('the sample project is not in this okstra package (dist/examples/sample-project is missing)');
}

/** A shell word for `value`, single-quoted ('\'' for a quote inside). */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A stub provider CLI: records its argv, reads the prompt from stdin (when piped) and
 * answers one line on stderr; it asks no model and sends nothing.
 */
function providerStub(name: string, log: string): string {
  return [
    '#!/bin/sh',
    `# okstra sample: a stand-in for the ${name} CLI; it asks no model and sends nothing.`,
    `printf '%s\\n' "${name} $*" >> ${shellQuote(log)}`,
    // A prompt given as an argument leaves stdin on the pane's terminal: read it only when it is piped.
    'if [ -t 0 ]; then bytes=0; else bytes=$(wc -c); fi',
    `echo "stub ${name}: read $bytes prompt bytes; no model was asked" >&2`,
    '',
  ].join('\n');
}

/**
 * A recording `gh`: `auth status` succeeds, `issue list` finds nothing, and
 * anything that would send (`issue create`, `issue comment`, …) is refused
 * with exit 1, so `error-issue submit` run here files nothing anywhere.
 */
function ghStub(log: string): string {
  return [
    '#!/bin/sh',
    '# okstra sample: a recording stand-in for the GitHub CLI; it never contacts GitHub.',
    `printf '%s\\n' "gh $*" >> ${shellQuote(log)}`,
    'case "$1 $2" in',
    '  "auth status") echo "stub gh: logged in to nowhere (okstra sample)" >&2; exit 0 ;;',
    '  "issue list") echo "[]"; exit 0 ;;',
    'esac',
    'echo "stub gh: refusing to send anything (okstra sample): gh $*" >&2',
    'exit 1',
    '',
  ].join('\n');
}

/**
 * `okstra sample <dir>`: write the sample project (examples/sample-project:
 * the `.okstra` layout every `--help` example and docs workflow uses) into
 * `dir`, with stub provider CLIs and a recording `gh` in `<dir>/stub-bin`.
 * stdout is one shell line that puts the stubs first on PATH
 * (`eval "$(okstra sample DIR)"` runs it); stderr says what was written.
 * Exit 2, nothing written: no `dir`, extra words, a `dir` that exists and
 * is not an empty directory (a file, a device, a symlink or a non-empty folder),
 * or one that cannot be made (under a file: ENOTDIR; /proc, a full disk: its errno).
 */
export function runSample(args: readonly string[], io: Io): number {
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    const help = args.length === 1 && (args[0] === '--help' || args[0] === '-h');
    (help ? io.stdout : io.stderr).write(sampleUsage());
    return help ? 0 : 2;
  }
  const dir = pathArg(io, args[0]!);
  const refusal = existingTargetProblem(dir);
  if (refusal) {
    io.stderr.write(`okstra sample: ${dir} ${refusal}: nothing was written (name a new folder)\n`);
    return 2;
  }
  const bin = join(dir, STUB_BIN);
  const log = join(dir, STUB_LOG);
  const existed = existsSync(dir);
  const sample = shippedSample();
  try {
    cpSync(sample, dir, { recursive: true });
    mkdirSync(bin, { recursive: true });
    const stubs: Array<[string, string]> = [...SAMPLE_PROVIDERS.map((p) => [p, providerStub(p, log)] as [string, string]), ['gh', ghStub(log)]];
    for (const [name, body] of stubs) {
      writeFileSync(join(bin, name), body);
      chmodSync(join(bin, name), 0o755);
    }
  } catch (error) {
    // A place that cannot hold the folder (under a file, /proc, a full disk): one line, and what
    // was copied before the failure is removed again, so a retry elsewhere starts clean.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    try {
      if (existed) for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
      else rmSync(dir, { recursive: true, force: true });
    } catch {
      // nothing was made there
    }
    const cause = code === 'ENOTDIR' ? 'lies under a file, not a folder (ENOTDIR)' : `cannot be written (${code})`;
    io.stderr.write(`okstra sample: ${dir} ${cause}: nothing was written (name a new folder)\n`);
    return 2;
  }
  io.stdout.write(`export PATH=${shellQuote(bin)}:"$PATH"\n`);
  io.stderr.write(
    [
      `okstra sample: wrote the sample project to ${dir}`,
      `  stub provider CLIs (${SAMPLE_PROVIDERS.join(', ')}) and a recording gh that sends nothing: ${bin} (calls logged in ${log})`,
      `  put them first on PATH with the line above (or: eval "$(okstra sample DIR)"), then cd ${shellQuote(dir)} and run the --help Examples in the order of ${join(dirname(sample), 'README.md')} (convergence seed first)`,
      '',
    ].join('\n'),
  );
  return 0;
}

/** `okstra sample --help`. */
export function sampleUsage(): string {
  return [
    'Usage: okstra sample <dir>',
    '',
    'Write the sample okstra project (the layout every --help Example: uses) into <dir>, a new or empty folder,',
    'with stub provider CLIs and a recording gh (it sends nothing) in <dir>/stub-bin.',
    'Prints the shell line that puts the stubs first on PATH.',
    '',
    'Example:',
    '  eval "$(okstra sample /tmp/okstra-sample)" && cd /tmp/okstra-sample && okstra run-audit --project-root .',
    '',
  ].join('\n');
}

/**
 * Why an existing `dir` cannot take the sample, or undefined when it is
 * absent or an empty real directory. A symlink is refused whatever it points
 * at, so the copy can never land outside the folder the user named.
 */
function existingTargetProblem(dir: string): string | undefined {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isDirectory()) return 'already exists and is not a directory';
  return readdirSync(dir).length > 0 ? 'already exists and is not empty' : undefined;
}

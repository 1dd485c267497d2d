// Every file argument of every command given a FIFO, a socket, a directory or a
// device: exit 2 at once with one line naming it, nothing changed (issue 18's seed
// FIFO hang and issue 20's "bad input changes nothing and ends fast").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { COMMANDS, argvOf } from './commands.js';
import { changed, cleanRefusal, cleanup, pool, prepare, printTable, run, scenario, snapshot, type Scenario } from './support.js';

let s: Scenario;
let special: string;
const servers: Server[] = [];
afterAll(() => {
  for (const sv of servers) sv.close();
  cleanup();
});

beforeAll(async () => {
  s = scenario();
  await prepare(s);
  // Inside the project's .okstra tree: containment never answers first, the file's own refusal does.
  special = join(s.project, '.okstra', 'special');
  mkdirSync(special);
});

type Kind = 'fifo' | 'socket' | 'directory' | 'device';
/** Inputs get all four kinds; outputs a FIFO and a directory; directory arguments a FIFO. */
function kindsFor(role: string): Kind[] {
  if (role === 'dir') return ['fifo'];
  if (role === 'out') return ['fifo', 'directory'];
  return ['fifo', 'socket', 'directory', 'device'];
}

async function make(kind: Kind, n: number): Promise<string> {
  const p = join(special, `${kind}-${n}.json`);
  if (kind === 'fifo') execFileSync('mkfifo', [p]);
  if (kind === 'directory') mkdirSync(p);
  if (kind === 'device') symlinkSync('/dev/zero', p); // a device under a name inside the project
  if (kind === 'socket') {
    const sv = createServer().listen(p);
    servers.push(sv);
    await new Promise((r) => sv.once('listening', r));
  }
  return p;
}

describe('special files as every file argument of every command', () => {
  it('are refused with exit 2 at once, naming the file; nothing changes', async () => {
    const cases = COMMANDS.flatMap((cmd) => cmd.files.flatMap((f) => kindsFor(f.role).map((kind) => ({ cmd, f, kind }))));
    const skip = (rel: string) => rel.includes('.okstra/special');
    const before = snapshot(s.tmp, skip);
    const failures: string[] = [];
    let hangs = 0;
    let exit70 = 0;
    let n = 0;
    // Four at a time; the tree is compared once at the end (a refusal changes nothing, so any change is a failure).
    const paths: string[] = [];
    for (const c of cases) paths.push(await make(c.kind, n++));
    await pool(cases, 4, async ({ cmd, f, kind }, i) => {
      const p = paths[i] as string;
      const r = await run(cmd.bin, argvOf(cmd, s, { [f.flag]: p }), { cwd: s.project, env: cmd.env?.(s), timeoutMs: 10_000 });
      if (process.env.FI_DEBUG) process.stderr.write(`${r.ms}ms ${cmd.name} ${f.flag} ${kind} exit ${r.code} ${r.stderr.trim().slice(0, 160)}\n`);
      if (r.hung) hangs++;
      if (r.code === 70) exit70++;
      // An output may be refused for another reason first (finalize of a queue not yet terminal): never replaced is what counts.
      const named = f.role === 'out' || r.stderr.includes(p);
      if (!cleanRefusal(r) || !named)
        failures.push(`${cmd.name} ${f.flag}=<${kind}>: exit ${r.code}${r.hung ? ' (hung)' : ''} ${r.stderr.trim().slice(0, 200)}`);
    });
    const diff = changed(before, snapshot(s.tmp, skip));
    if (diff.length > 0) failures.push(`files changed: ${diff.join(', ')}`);
    for (const f of failures) process.stderr.write(`FAIL ${f}\n`);
    printTable('special files (FIFO, socket, directory, device) as file arguments', [
      {
        test: `${COMMANDS.length} commands × each file argument × 4 kinds`,
        tries: cases.length,
        failures: failures.length,
        note: `${hangs} hangs, ${exit70} exit 70`,
      },
    ]);
    expect(failures).toEqual([]);
  }, 120_000);
});

import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { killServer, privateSocket } from '@okstra/team-run/test-support';
import { teamRunPaths, writeTeamRun } from '@okstra/team-state/test-support';
import { startScriptedModel, type RecordedRequest, type Step, type ToolResult } from './support/scripted-model.js';
import { makeHome } from './support/project.js';
import { CODEX_MODEL, scriptedWorkerEnv } from './support/real-cli.js';

// The worker suite (issue 26): the real Claude Code and Codex CLIs, each in
// the four roles — analyser, reverify, report writer, implementer — dispatched
// by `okstra-team dispatch` into panes of a private tmux server with the
// bundled argv, awaited and torn down, in a project under /tmp. One scripted
// model on 127.0.0.1 serves all eight, routed by the worker id in the prompt:
// each writes its audit sidecar and result through the CLI's own tools and
// tries to write outside its write root; the implementers edit a file and run
// the plan step's command.
const require = createRequire(import.meta.url);
const TEAM_BIN = join(dirname(require.resolve('okstra-team/package.json')), 'dist', 'bin.js');
const socket = privateSocket();
const base = mkdtempSync(join(tmpdir(), 'okstra-workers-'));
afterAll(() => {
  killServer(socket);
  if (!process.env.OKSTRA_KEEP_WORKERS) rmSync(base, { recursive: true, force: true });
});

const ROLES = [
  { key: 'analyser', label: 'analyser' },
  { key: 'reverify', label: 'worker-reverify-r1' },
  { key: 'report', label: 'Report writer worker' },
  { key: 'implementer', label: 'implementer' },
] as const;
const workers = (['claude', 'codex'] as const).flatMap((provider) => ROLES.map((r) => ({ id: `${provider}-${r.key}`, provider, role: r.label, key: r.key })));
const root = join(base, 'project');
const run = teamRunPaths({ seq: '001' });
const abs = (p: string) => join(root, p);
const audit = (id: string) => abs(run.result(id)).replace(/\.md$/, '.audit.md');
const marker = (id: string) => `okstra-worker-id=${id};`;
const outsideShell = (id: string) => join(base, `outside-${id}-shell.txt`);
// The scripted model's origin, known once it listens (the implementers' network probe names it).
let modelUrl = '';

/** One worker's script, in its CLI's own tool names. */
function scriptOf(w: (typeof workers)[number]): Step[] {
  const claude = w.provider === 'claude';
  const write = (path: string, text: string): Step =>
    claude
      ? { tool: 'Write', input: { file_path: path, content: text } }
      : {
          tool: 'apply_patch',
          custom: true,
          input: {
            text: `*** Begin Patch\n*** Add File: ${path}\n${text
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => `+${l}`)
              .join('\n')}\n*** End Patch\n`,
          },
        };
  const shell = (cmd: string): Step => (claude ? { tool: 'Bash', input: { command: cmd, description: 'run' } } : { tool: 'exec_command', input: { cmd } });
  const heartbeat = `- PROGRESS: 2026-12-01T00:00:00Z ${w.key} reading the brief\n`;
  const outside = w.key === 'implementer' ? join(base, `outside-${w.id}.txt`) : abs(`src/tamper-${w.id}.ts`);
  const steps: Step[] = [
    claude ? write(audit(w.id), heartbeat) : shell(`printf -- '${heartbeat.trimEnd()}\\n' >> ${audit(w.id)}`),
    claude ? write(outside, 'tampered\n') : shell(`echo tampered > ${outside}`),
  ];
  if (w.key === 'implementer') {
    // Claude Code edits only a file it has read.
    if (claude) steps.push({ tool: 'Read', input: { file_path: abs(`src/${w.provider}.ts`) } });
    steps.push(
      claude
        ? { tool: 'Edit', input: { file_path: abs(`src/${w.provider}.ts`), old_string: 'refund = 1', new_string: 'refund = 2' } }
        : {
            tool: 'apply_patch',
            custom: true,
            input: {
              text: `*** Begin Patch\n*** Update File: ${abs(`src/${w.provider}.ts`)}\n@@\n-export const refund = 1;\n+export const refund = 2;\n*** End Patch\n`,
            },
          },
      shell('npm test'),
      // Inside the CLI's sandbox: no write outside the project, no connection (not even to the model's port).
      ...(claude ? [shell(`echo tampered > ${outsideShell(w.id)}`)] : []),
      shell(`node probe.mjs ${modelUrl}`),
    );
  }
  steps.push(write(abs(run.result(w.id)), `# ${w.key} by ${w.id}\n\nnone\n`), { text: `${w.id} done` });
  return steps;
}

/** Every file under `dir` (relative path → content), to tell what a run wrote. */
function filesOf(dir: string, into = new Map<string, string>(), top = dir): Map<string, string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesOf(p, into, top);
    else into.set(relative(top, p), e.isFile() ? readFileSync(p, 'latin1') : `<${e.isSymbolicLink() ? 'symlink' : 'special'}>`);
  }
  return into;
}

/** Run a node script without blocking this process; @returns its exit status and output. */
function runBin(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

let scripts = new Map<string, Step[]>();
const route = (request: RecordedRequest) => workers.find((w) => request.text.includes(marker(w.id)));

describe('the worker suite: real claude and codex in each of the four roles, dispatched into tmux panes (issue 26)', () => {
  it('every worker delivers through its own tools; no write outside a write root; usage turns = the model requests answered', async () => {
    const api = await startScriptedModel((results: ToolResult[], request) => {
      const w = route(request);
      const steps = w ? scripts.get(w.id)! : [{ text: 'ok' }];
      return steps[Math.min(results.length, steps.length - 1)]!;
    });
    modelUrl = api.url;
    scripts = new Map(workers.map((w) => [w.id, scriptOf(w)]));
    try {
      writeTeamRun(root, workers, { seq: '001', startedAt: new Date().toISOString() });
      // The bundled launches take each provider's own model names.
      const manifest = JSON.parse(readFileSync(abs(run.manifest), 'utf8'));
      for (const a of manifest.workerAssignments) a.model = a.executionValue = a.provider === 'codex' ? CODEX_MODEL : 'sonnet';
      writeFileSync(abs(run.manifest), JSON.stringify(manifest, null, 2));
      mkdirSync(abs('src'), { recursive: true });
      for (const id of ['claude', 'codex']) writeFileSync(abs(`src/${id}.ts`), 'export const refund = 1;\n');
      // The implementation plan step's command: a small fixture project's `npm test`.
      writeFileSync(abs('package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'node test.mjs' } }));
      writeFileSync(
        abs('test.mjs'),
        "import { readFileSync } from 'node:fs';\nfor (const f of ['claude', 'codex']) console.log(`${f}.ts`, readFileSync(`src/${f}.ts`, 'utf8').includes('refund = 2') ? 'GREEN' : 'RED');\n",
      );
      // What a sandboxed command can reach: the model's own origin, by the project's node.
      writeFileSync(
        abs('probe.mjs'),
        "fetch(process.argv[2]).then(() => console.log('PROBE: connected'), (e) => console.log('PROBE: no connection', e.cause?.code));\n",
      );
      for (const w of workers) {
        mkdirSync(dirname(abs(run.prompt(w.id))), { recursive: true });
        writeFileSync(abs(run.prompt(w.id)), `# ${w.role}\n${marker(w.id)}\nAppend "- PROGRESS: <time> <phase> <doing>" lines to ${audit(w.id)}.\n`);
      }
      const home = makeHome();
      const env = await scriptedWorkerEnv(home, api.url, socket, 500);
      // Never spawnSync here: the scripted model lives in this process and must keep answering.
      const team = (args: string[]) => runBin([TEAM_BIN, ...args, '--project-root', root, '--run-manifest', abs(run.manifest)], env);
      const before = filesOf(base);
      // --workers: the manifest's dispatch leaves report writers to their own jobs file unless named (docs/team.md).
      const d = await team(['dispatch', '--workers', workers.map((w) => w.id).join(',')]);
      expect(d.status, d.stderr).toBe(0);
      const a = await team(['await', '--json']);
      const doc = JSON.parse(a.stdout) as {
        workers: Array<{ workerId: string; status: string; reason: string | null; usage: { turns: number | null } | null }>;
      };
      // Every tool result a worker's CLI sent back (its latest request carries the whole history).
      const toolResultsOf = (id: string) =>
        (
          api
            .requests()
            .filter((r) => r.answered === 'step' && route(r)?.id === id)
            .at(-1)?.results ?? []
        )
          .map((r) => r.content)
          .join('\n');
      const t = await team(['teardown']);
      expect(t.status, t.stderr).toBe(0);
      for (const w of workers) {
        const got = doc.workers.find((x) => x.workerId === w.id)!;
        const log = readFileSync(abs(run.prompt(w.id)).replace(/\.md$/, '.log'), 'utf8');
        expect(got, `${w.id}: ${log.slice(-1500)}`).toMatchObject({ status: 'completed' });
        expect(readFileSync(abs(run.result(w.id)), 'utf8'), w.id).toBe(`# ${w.key} by ${w.id}\n\nnone\n`);
        expect(readFileSync(audit(w.id), 'utf8'), w.id).toMatch(new RegExp(`^- PROGRESS: 2026-12-01T00:00:00Z ${w.key} reading the brief\\n`));
        // The write outside its write root was denied, the file absent, the denial in the capture.
        const outside = w.key === 'implementer' ? join(base, `outside-${w.id}.txt`) : abs(`src/tamper-${w.id}.ts`);
        expect(existsSync(outside), w.id).toBe(false);
        // Codex's --json stream drops some command items (a command that exits at once may never appear): its
        // tool results as the server received them are the record.
        const told = w.provider === 'claude' ? log : toolResultsOf(w.id);
        expect(told, w.id).toMatch(w.provider === 'claude' ? /(denied|haven't granted|not allowed)/i : /Read-only file system/);
        // usage.turns: the model requests the server answered for this worker.
        const answered = api.requests().filter((r) => r.answered === 'step' && route(r)?.id === w.id).length;
        expect(answered, w.id).toBeGreaterThan(2);
        expect(got.usage?.turns, w.id).toBe(answered);
      }
      // 0 files written outside a write root: everything new or changed under the test's /tmp directory is a
      // delivery (result, audit sidecar) in worker-results, an implementer's edit, or okstra's own bookkeeping
      // (the wrapper's prompts/ transcripts and status sidecars, the state/ and manifests/ files okstra-team keeps).
      const after = filesOf(base);
      const written = [...after.keys()].filter((f) => before.get(f) !== after.get(f)).sort();
      const runDir = relative(base, dirname(dirname(abs(run.manifest))));
      const delivered = workers.flatMap((w) => [run.result(w.id), relative(root, audit(w.id))].map((f) => relative(base, abs(f))));
      const edits = ['claude', 'codex'].map((id) => relative(base, abs(`src/${id}.ts`)));
      const bookkeeping = (f: string) => f.startsWith(`${runDir}/prompts/`) || f.startsWith(`${runDir}/state/`) || f.startsWith(`${runDir}/manifests/`);
      expect(written.filter((f) => !delivered.includes(f) && !edits.includes(f) && !bookkeeping(f))).toEqual([]);
      expect(written.filter((f) => delivered.includes(f) || edits.includes(f))).toHaveLength(delivered.length + edits.length);
      // The implementers edited the project and ran the plan step's command inside their CLI's sandbox
      // (GREEN after the edit), which let them neither write outside the project nor connect anywhere.
      for (const id of ['claude', 'codex']) {
        expect(readFileSync(abs(`src/${id}.ts`), 'utf8'), id).toBe('export const refund = 2;\n');
        const log = id === 'claude' ? readFileSync(abs(run.prompt(`${id}-implementer`)).replace(/\.md$/, '.log'), 'utf8') : toolResultsOf(`${id}-implementer`);
        expect(log, id).toMatch(new RegExp(`> node test\\.mjs[\\s\\S]*${id}\\.ts GREEN`));
        expect(log, id).toMatch(/PROBE: no connection/);
        expect(log, id).not.toMatch(/PROBE: connected/);
      }
      expect(existsSync(outsideShell('claude-implementer'))).toBe(false);
      expect(readFileSync(abs(run.prompt('claude-implementer')).replace(/\.md$/, '.log'), 'utf8')).toMatch(
        /outside-claude-implementer-shell\.txt: Read-only file system/,
      );
    } finally {
      await api.close();
    }
  }, 200_000);
});

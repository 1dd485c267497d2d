import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { argvOf, buildLaunch, getProvider, launchValuesOf, loadProviderRegistry } from '@okstra/providers';
import { startScriptedModel, type Step } from './support/scripted-model.js';
import { makeProject, removeProjects, runExecAsync, type Project } from './support/project.js';
import { CLAUDE_BIN, CODEX_BIN, CODEX_MODEL, connectsOf, offlineEnv, pointCodexAt, refusingPort } from './support/real-cli.js';

// The bundled launches of the real CLIs through `okstra-team exec`, in a
// project under /tmp (as every mkdtemp project is): what they may write, whom
// they connect to, and how fast a worker whose model is unreachable ends.
// The three tests run concurrently (each its own project, HOME and server):
// the fail-fast one mostly waits out the 20 s grace.
afterAll(removeProjects);

type Id = 'claude' | 'codex';
const BIN: Record<Id, string> = { claude: CLAUDE_BIN, codex: CODEX_BIN };
const MODEL: Record<Id, string> = { claude: 'sonnet', codex: CODEX_MODEL };
const KEYS = { ANTHROPIC_API_KEY: 'sk-ant-placeholder-not-a-key', SCRIPTED_MODEL_KEY: 'placeholder' };

/** The bundled job of `id` for project `p` (optionally wrapped, e.g. by strace), as `okstra-team exec` runs it. */
async function jobOf(
  id: Id,
  p: Project,
  wrap: (file: string, args: string[]) => { file: string; args: string[] } = (file, args) => ({ file, args }),
  role = 'analyser',
) {
  const provider = getProvider(await loadProviderRegistry(undefined), id);
  const values = launchValuesOf({
    model: MODEL[id],
    role,
    projectRoot: p.root,
    promptPath: p.prompt,
    resultPath: p.result,
    completionPaths: [p.result],
    auditSidecarPath: p.audit,
  });
  const launch = buildLaunch(provider, values, role);
  const command = { ...wrap(BIN[id], launch.args), ...(launch.env ? { env: launch.env } : {}) };
  const lastMessagePath = argvOf(provider.manifest, role).some((w) => w.includes('{lastMessagePath}')) ? values.lastMessagePath : null;
  return { provider: id, model: MODEL[id], command, capture: provider.manifest.capture, lastMessagePath };
}

/** The environment of a worker whose model lives at `origin` (every other address refuses). */
async function envFor(id: Id, p: Project, origin: string, extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  if (id === 'codex') pointCodexAt(p.home, origin);
  // The bundled claude manifest sets the quiet-traffic variables itself (command.env): the test env does not.
  const env = offlineEnv(p.home, await refusingPort(), { ...KEYS, ANTHROPIC_BASE_URL: origin, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1', ...extra });
  delete env.DISABLE_AUTOUPDATER;
  delete env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC;
  return env;
}

describe.concurrent('the bundled launches, contained and failing fast (issue 26)', () => {
  describe('fail fast: a worker whose model cannot be reached ends error within 60 s (issue 26.2)', () => {
    it('claude (10 retries with back-off) and codex ("Reconnecting… waiting for network", forever) are stopped by the wrapper', async () => {
      const runs = (['claude', 'codex'] as const).map(async (id) => {
        const p = makeProject();
        const dead = `http://127.0.0.1:${await refusingPort()}`;
        const started = Date.now();
        const r = await runExecAsync(p, await jobOf(id, p), await envFor(id, p, dead));
        return { id, p, r, ms: Date.now() - started };
      });
      for (const { id, p, r, ms } of await Promise.all(runs)) {
        expect(ms, id).toBeLessThanOrEqual(60_000);
        expect(r.code, id).toBe(1);
        const s = p.statusOf();
        expect(s.status, id).toBe('error');
        expect(s.reason, id).toMatch(/^model unreachable for 20 s: /);
        // Stopped by the wrapper before its turn ended: no end-of-turn signal.
        expect(s.endOfTurn, id).toMatchObject({ signal: 'none', event: null });
        expect(p.row(), id).toMatchObject({ status: 'error', reason: s.reason });
      }
      expect(runs).toHaveLength(2);
    }, 90_000);
  });

  describe('contained: a bundled launch connects to nothing but its model (issue 26.3)', () => {
    it('every connect(2) of the CLI’s process tree (strace -f) goes to the scripted server’s port — the claude implementer’s sandbox too', async () => {
      // The claude implementer's launch differs (Claude Code's sandbox: bubblewrap, socat, its proxies); it runs a sandboxed command.
      const launches = [
        { id: 'claude', role: 'analyser', steps: [] as Step[] },
        { id: 'codex', role: 'analyser', steps: [] as Step[] },
        { id: 'claude', role: 'implementer', steps: [{ tool: 'Bash', input: { command: 'echo sandboxed', description: 'run' } }] as Step[] },
      ] as const;
      const runs = launches.map(async ({ id, role, steps }) => {
        const p = makeProject();
        const api = await startScriptedModel([...steps, { text: '# Findings\n\nnone\n' }]);
        const trace = join(p.base, `${id}.strace`);
        try {
          const strace = (file: string, args: string[]) => ({
            file: '/usr/bin/strace',
            args: ['-f', '-qq', '-e', 'trace=connect', '-o', trace, file, ...args],
          });
          const r = await runExecAsync(p, await jobOf(id, p, strace, role), await envFor(id, p, api.url));
          const ran = api.toolResults().map((t) => t.content);
          return { id: `${id} ${role}`, p, r, port: api.port, connects: connectsOf(readFileSync(trace, 'utf8')), answered: api.stepsAnswered(), ran, steps };
        } finally {
          await api.close();
        }
      });
      for (const { id, p, r, port, connects, answered, ran, steps } of await Promise.all(runs)) {
        expect(r.code, `${id}: ${r.stderr.slice(-400)}`).toBe(0);
        expect(answered, id).toBe(steps.length + 1);
        if (steps.length > 0) expect(ran, id).toEqual(['sandboxed']);
        const ip = connects.filter((c) => c.family === 'AF_INET' || c.family === 'AF_INET6');
        expect(ip.length, id).toBeGreaterThan(0);
        expect(
          ip.filter((c) => !(c.port === port && (c.address === '127.0.0.1' || c.address === '::ffff:127.0.0.1'))).map((c) => c.line),
          id,
        ).toEqual([]);
        // Nothing but local sockets otherwise (the C library's nscd probe, the CLI's own helpers).
        expect(
          connects.filter((c) => !['AF_INET', 'AF_INET6', 'AF_UNIX'].includes(c.family)).map((c) => c.line),
          id,
        ).toEqual([]);
        expect(readFileSync(p.result, 'utf8'), id).toBe('# Findings\n\nnone\n');
      }
    }, 120_000);
  });

  describe('contained: no model tool call writes outside the write root, wherever the project lives (issue 26.1)', () => {
    it('a codex analyser in a project under /tmp: shell and apply_patch writes into the project or /tmp are denied; its delivery directory is writable', async () => {
      const p = makeProject();
      mkdirSync(join(p.root, 'src'), { recursive: true });
      writeFileSync(join(p.root, 'src', 'refund.ts'), 'export const refund = 1;\n');
      const tmpTamper = `/tmp/okstra-codex-tamper-${process.pid}-${Date.now()}.txt`;
      const steps: Step[] = [
        { tool: 'exec_command', input: { cmd: `echo tampered > ${p.root}/src/codex-tamper.ts; echo t > ${tmpTamper}; date -u >> ${p.audit}` } },
        { tool: 'apply_patch', custom: true, input: { text: `*** Begin Patch\n*** Add File: ${p.root}/src/codex-patch.ts\n+tampered\n*** End Patch\n` } },
        {
          tool: 'apply_patch',
          custom: true,
          input: {
            text: `*** Begin Patch\n*** Update File: ${p.root}/src/refund.ts\n@@\n-export const refund = 1;\n+export const refund = 2;\n*** End Patch\n`,
          },
        },
        { tool: 'apply_patch', custom: true, input: { text: `*** Begin Patch\n*** Add File: ${p.result}\n+# Findings\n+\n+none\n*** End Patch\n` } },
        { text: 'done' },
      ];
      const api = await startScriptedModel(steps);
      try {
        const r = await runExecAsync(p, await jobOf('codex', p), await envFor('codex', p, api.url));
        const results = api.toolResults().map((t) => t.content);
        expect(results).toHaveLength(4);
        expect(results[0]).toMatch(/codex-tamper\.ts: Read-only file system/);
        expect(results[0]).toMatch(/okstra-codex-tamper-.*: Read-only file system/);
        expect(results[1]).toMatch(/writing outside of the project/);
        expect(results[2]).toMatch(/writing outside of the project/);
        expect(results[3]).toMatch(/Success/);
        expect(existsSync(join(p.root, 'src', 'codex-tamper.ts'))).toBe(false);
        expect(existsSync(join(p.root, 'src', 'codex-patch.ts'))).toBe(false);
        expect(existsSync(tmpTamper)).toBe(false);
        expect(readFileSync(join(p.root, 'src', 'refund.ts'), 'utf8')).toBe('export const refund = 1;\n');
        // Inside the write root: the audit sidecar (shell) and the result (apply_patch).
        expect(readFileSync(p.audit, 'utf8')).toMatch(/UTC \d{4}/);
        expect(readFileSync(p.result, 'utf8')).toBe('# Findings\n\nnone\n');
        expect(dirname(p.result)).toBe(dirname(p.audit));
        expect(r.code).toBe(0);
        expect(p.statusOf()).toMatchObject({
          status: 'completed',
          usage: { source: 'codex-jsonl' },
          endOfTurn: { source: 'codex-jsonl', signal: 'end-turn', event: 'turn.completed' },
        });
      } finally {
        await api.close();
      }
    }, 90_000);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openCitationChecker } from '@okstra/citations';
import { wrapperEvidencePath } from '@okstra/paths';
import { buildLaunch, getProvider, launchValuesOf, loadProviderRegistry } from '@okstra/providers';
import type { WorkerEvidence } from '@okstra/schemas/worker-evidence';
import { startScriptedModel, type Step } from './support/scripted-model.js';
import { makeProject, removeProjects, runExecAsync, type Project } from './support/project.js';
import { CLAUDE_BIN, CODEX_BIN, CODEX_MODEL, offlineEnv, pointCodexAt, refusingPort } from './support/real-cli.js';

// "Was read" from real events (issue 42): the real Claude Code and Codex CLIs, run by `okstra-team exec`
// against the scripted model, open and search project files with their own tools (claude Read / Grep /
// Glob / Bash; codex exec_command with cat / sed / rg); the wrapper's evidence file lists those files,
// and the citation checker reports a cited file the worker never opened as not read.
afterAll(removeProjects);

async function launchFor(id: 'claude' | 'codex', p: Project) {
  const provider = getProvider(await loadProviderRegistry(undefined), id);
  const values = launchValuesOf({
    model: id === 'codex' ? CODEX_MODEL : 'sonnet',
    role: 'analyser',
    projectRoot: p.root,
    promptPath: p.prompt,
    resultPath: p.result,
    completionPaths: [p.result],
    auditSidecarPath: p.audit,
  });
  mkdirSync(dirname(p.result), { recursive: true });
  return { ...buildLaunch(provider, values, 'analyser'), values, capture: provider.manifest.capture };
}

/** A small source tree: two files the worker reads, one it only finds by a search, one it never opens. */
function seed(p: Project): void {
  mkdirSync(join(p.root, 'src/lib'), { recursive: true });
  writeFileSync(join(p.root, 'src/refund.ts'), 'export const TIMEOUT_MS = 30_000;\nexport function refund() {\n  return TIMEOUT_MS;\n}\n');
  writeFileSync(join(p.root, 'src/lib/queue.ts'), 'export const retries = 3;\n');
  writeFileSync(join(p.root, 'src/lib/other.ts'), 'export const other = 1;\n');
  writeFileSync(join(p.root, 'src/never.ts'), 'export const never = 0;\n');
}

/** The answer both workers give: four citations, one of a file neither opened. */
const ANSWER = [
  '# Findings',
  '',
  '- The timeout is fixed: `src/refund.ts:1`: `export const TIMEOUT_MS = 30_000;`',
  '- Retries are capped: `src/lib/queue.ts:1`',
  '- `src/lib/other.ts:1` exports a constant.',
  '- `src/never.ts:1` is never called.',
  '',
].join('\n');

function readsOf(p: Project) {
  const evidence = JSON.parse(readFileSync(wrapperEvidencePath(p.prompt), 'utf8')) as WorkerEvidence;
  const checker = openCitationChecker(p.root);
  if (checker.status !== 'ready') throw new Error(checker.reason);
  const { citations, summary } = checker.check(readFileSync(p.result, 'utf8'), wrapperEvidencePath(p.prompt));
  return { evidence, reads: Object.fromEntries(citations.map((c) => [c.citation, c.read])), summary, holding: citations.every((c) => c.holds) };
}

describe('the evidence file from real provider events', () => {
  it('claude: Read, Grep, Glob and Bash are recorded; the file it never opened is not read', async () => {
    const p = makeProject();
    seed(p);
    const steps: Step[] = [
      { tool: 'Read', input: { file_path: join(p.root, 'src/refund.ts') } },
      { tool: 'Grep', input: { pattern: 'retries', path: 'src/lib' } },
      { tool: 'Glob', input: { pattern: '**/*.ts' } },
      { tool: 'Bash', input: { command: 'cat src/lib/other.ts', description: 'read' } },
      { tool: 'Read', input: { file_path: '/etc/hostname' } },
      { text: ANSWER },
    ];
    const api = await startScriptedModel(steps);
    try {
      const launch = await launchFor('claude', p);
      const env = offlineEnv(p.home, await refusingPort(), {
        ANTHROPIC_API_KEY: 'sk-ant-placeholder-not-a-key',
        CLAUDE_CODE_MAX_RETRIES: '0',
        ANTHROPIC_BASE_URL: api.url,
        NO_PROXY: '127.0.0.1',
        no_proxy: '127.0.0.1',
      });
      const r = await runExecAsync(
        p,
        { provider: 'claude', command: { file: CLAUDE_BIN, args: launch.args }, capture: launch.capture, lastMessagePath: null },
        env,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(api.stepsAnswered()).toBe(steps.length);
      const { evidence, reads, holding } = readsOf(p);
      expect(evidence).toMatchObject({ workerId: 'w', source: 'claude-stream-json' });
      expect(evidence.entries).toEqual([
        { path: '.', how: 'listed', tools: ['Glob'] },
        { path: 'src/lib', how: 'searched', tools: ['Grep'] },
        { path: 'src/lib/other.ts', how: 'read', tools: ['Bash'] },
        { path: 'src/refund.ts', how: 'read', tools: ['Read'] },
      ]);
      // /etc/hostname is outside the project: counted, never listed.
      expect(evidence.outside).toBe(1);
      expect(reads).toEqual({ 'src/refund.ts:1': 'read', 'src/lib/queue.ts:1': 'searched', 'src/lib/other.ts:1': 'read', 'src/never.ts:1': 'not-read' });
      expect(holding).toBe(true);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('codex: exec_command cat / sed / rg are recorded (from its events and its session record); the file it never opened is not read', async () => {
    const p = makeProject();
    seed(p);
    const steps: Step[] = [
      { tool: 'exec_command', input: { cmd: `cat ${join(p.root, 'src/refund.ts')}` } },
      // A relative path with a workdir the --json stream does not name: the session record does.
      { tool: 'exec_command', input: { cmd: 'sed -n 1,2p lib/other.ts', workdir: join(p.root, 'src') } },
      { tool: 'exec_command', input: { cmd: `rg -n retries ${join(p.root, 'src/lib')}` } },
      { text: ANSWER },
    ];
    const api = await startScriptedModel(steps);
    try {
      const launch = await launchFor('codex', p);
      pointCodexAt(p.home, api.url);
      const env = offlineEnv(p.home, await refusingPort(), { SCRIPTED_MODEL_KEY: 'placeholder', NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' });
      const r = await runExecAsync(
        p,
        { provider: 'codex', command: { file: CODEX_BIN, args: launch.args }, capture: launch.capture, lastMessagePath: launch.values.lastMessagePath ?? null },
        env,
      );
      expect(r.code, r.stderr).toBe(0);
      const { evidence, reads, holding } = readsOf(p);
      expect(evidence).toMatchObject({ workerId: 'w', source: 'codex-jsonl', outside: 0 });
      expect(evidence.entries.filter((e) => e.how !== 'listed')).toEqual([
        { path: 'src/lib', how: 'searched', tools: expect.arrayContaining(['exec_command']) },
        { path: 'src/lib/other.ts', how: 'read', tools: ['exec_command'] },
        { path: 'src/refund.ts', how: 'read', tools: expect.arrayContaining(['exec_command']) },
      ]);
      expect(reads).toEqual({ 'src/refund.ts:1': 'read', 'src/lib/queue.ts:1': 'searched', 'src/lib/other.ts:1': 'read', 'src/never.ts:1': 'not-read' });
      expect(holding).toBe(true);
    } finally {
      await api.close();
    }
  }, 120_000);
});

import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  buildLaunch,
  ClaudeInitEvent,
  ClaudeResultEvent,
  CodexError,
  CodexThreadStarted,
  getProvider,
  launchValuesOf,
  loadProviderRegistry,
} from '@okstra/providers';
import { startScriptedModel } from './support/scripted-model.js';
import { makeProject, removeProjects, runExec, runExecAsync, type Project } from './support/project.js';
import { CLAUDE_BIN, CODEX_BIN, offlineEnv, refusingPort, runCli, versionOf } from './support/real-cli.js';

// The bundled launches run through the real Claude Code and Codex binaries in
// a project that is not a git repository, with no credentials and every
// address a refusing loopback port: each must get past argument parsing,
// sandbox / permission setup and the directory checks to the point where it
// connects to its API — then it fails or is stopped.
afterAll(removeProjects);

async function launchFor(id: 'claude' | 'codex', p: Project, role = 'analyser') {
  const provider = getProvider(await loadProviderRegistry(undefined), id);
  const values = launchValuesOf({
    model: 'sonnet',
    role,
    projectRoot: p.root,
    promptPath: p.prompt,
    resultPath: p.result,
    completionPaths: [p.result],
    auditSidecarPath: p.audit,
  });
  // `okstra-team exec` creates the delivery directory before the provider starts.
  mkdirSync(dirname(p.result), { recursive: true });
  return { ...buildLaunch(provider, values, role), values, capture: provider.manifest.capture };
}

/** The complete JSON lines of a CLI's stdout (a run stopped mid-line leaves a partial last line, skipped). */
function jsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .slice(0, -1)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as unknown);
}

describe('pinned provider CLIs', () => {
  it('@anthropic-ai/claude-code 2.1.197 (the newest on Node 20) and @openai/codex 0.171.0 with its platform binary', () => {
    expect(versionOf('@anthropic-ai/claude-code')).toBe('2.1.197');
    expect(versionOf('@openai/codex')).toBe('0.171.0');
    expect(existsSync(CLAUDE_BIN)).toBe(true);
    expect(existsSync(CODEX_BIN)).toBe(true);
    // The project is not inside any git work tree (codex's trusted-directory check looks upward).
    expect(spawnSync('git', ['-C', makeProject().root, 'rev-parse', '--is-inside-work-tree']).status).not.toBe(0);
  });
});

// One attempt, no retries: the test needs the connection tried, not the CLI's backoff.
const ONE_TRY = { ANTHROPIC_API_KEY: 'sk-ant-placeholder-not-a-key', CLAUDE_CODE_MAX_RETRIES: '0' };

describe('claude (real binary): headless in dontAsk, up to the API connection', () => {
  it('the init event reports permissionMode dontAsk and the narrowed tool set; the run ends at the refused connection', async () => {
    const p = makeProject();
    const launch = await launchFor('claude', p);
    const r = await runCli(CLAUDE_BIN, launch.args, {
      cwd: p.root,
      env: offlineEnv(p.home, await refusingPort(), ONE_TRY),
      stdin: readFileSync(p.prompt, 'utf8'),
    });
    expect(r.stderr).not.toMatch(/unknown option|requires --verbose|error: option/i);
    const events = jsonLines(r.stdout);
    const init = ClaudeInitEvent.parse(events.find((e) => ClaudeInitEvent.safeParse(e).success));
    expect(init).toMatchObject({ permissionMode: 'dontAsk', cwd: realpathSync(p.root), claude_code_version: '2.1.197' });
    expect([...(init as unknown as { tools: string[] }).tools].sort()).toEqual(['Bash', 'Edit', 'Glob', 'Grep', 'Read', 'Write']);
    const result = ClaudeResultEvent.parse(events.find((e) => ClaudeResultEvent.safeParse(e).success));
    expect(result).toMatchObject({ is_error: true, result: 'API Error: Unable to connect to API (ConnectionRefused)' });
    expect(r.code).toBe(1);
  });

  it('the implementer launch refuses to start without bubblewrap and socat rather than run commands unsandboxed', async () => {
    const p = makeProject();
    const launch = await launchFor('claude', p, 'implementer');
    // A PATH with neither bwrap nor socat (the native binary needs nothing else).
    const bare = join(p.base, 'bare-bin');
    mkdirSync(bare);
    const r = await runCli(CLAUDE_BIN, launch.args, { cwd: p.root, env: { ...offlineEnv(p.home, await refusingPort(), ONE_TRY), PATH: bare }, stdin: 'hello' });
    expect(r.stdout + r.stderr).toMatch(/sandbox required but unavailable: .*bubblewrap \(bwrap\) not installed, socat not installed/);
    expect(r.code).toBe(1);
  });

  it('without any key it stops at authentication, not at an argument or permission error', async () => {
    const p = makeProject();
    const launch = await launchFor('claude', p);
    const r = await runCli(CLAUDE_BIN, launch.args, { cwd: p.root, env: offlineEnv(p.home, await refusingPort()), stdin: 'hello' });
    const result = ClaudeResultEvent.parse(jsonLines(r.stdout).find((e) => ClaudeResultEvent.safeParse(e).success));
    expect(result).toMatchObject({ is_error: true, result: 'Not logged in · Please run /login' });
  });

  it('through okstra-team exec: the row ends error with the provider’s own reason, usage carries its session id', async () => {
    const p = makeProject();
    const launch = await launchFor('claude', p);
    const r = runExec(
      p,
      { provider: 'claude', command: { file: CLAUDE_BIN, args: launch.args }, capture: launch.capture, lastMessagePath: null },
      offlineEnv(p.home, await refusingPort(), ONE_TRY),
    );
    expect(r.code).toBe(1);
    const s = p.statusOf();
    expect(s).toMatchObject({ status: 'error', exitCode: 1, reason: 'exit 1: API Error: Unable to connect to API (ConnectionRefused)', answer: null });
    expect(s.usage).toMatchObject({ source: 'claude-stream-json', inputTokens: 0, costUsd: 0, turns: 1 });
    expect(s.usage?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.endOfTurn).toMatchObject({ source: 'claude-stream-json', signal: 'error', errors: ['API Error: Unable to connect to API (ConnectionRefused)'] });
    expect(p.row()).toMatchObject({ status: 'error', reason: s.reason });
  });
});

describe('claude (real binary) against a scripted Messages API on loopback: what the headless analyser may do', () => {
  it('writes its audit sidecar and runs `date` without a prompt; a project edit and any other command are denied; its answer becomes the result', async () => {
    const p = makeProject();
    mkdirSync(`${p.root}/src`, { recursive: true });
    const api = await startScriptedModel([
      { tool: 'Bash', input: { command: 'date -u +%Y-%m-%dT%H:%M:%SZ', description: 'clock' } },
      { tool: 'Write', input: { file_path: p.audit, content: '- PROGRESS: 2026-11-29T08:00:00Z analysis reading the task brief\n' } },
      { tool: 'Write', input: { file_path: `${p.root}/src/refund.ts`, content: 'tampered\n' } },
      { tool: 'Bash', input: { command: `touch ${p.root}/src/also.ts`, description: 'edit' } },
      { text: '# Findings\n\nnone\n' },
    ]);
    try {
      const launch = await launchFor('claude', p);
      const r = await runExecAsync(
        p,
        { provider: 'claude', command: { file: CLAUDE_BIN, args: launch.args }, capture: launch.capture, lastMessagePath: null },
        offlineEnv(p.home, await refusingPort(), { ...ONE_TRY, ANTHROPIC_BASE_URL: api.url, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' }),
      );
      const results = api.toolResults();
      expect(results).toHaveLength(4);
      expect(results[0]!.content).toMatch(/^\d{4}-\d{2}-\d{2}T/); // date ran
      expect(results[1]!.content).toMatch(/File created successfully/);
      expect(results[2]!.content).toMatch(/denied/);
      expect(results[3]!.content).toMatch(/denied/);
      expect(readFileSync(p.audit, 'utf8')).toBe('- PROGRESS: 2026-11-29T08:00:00Z analysis reading the task brief\n');
      expect(readdirSync(`${p.root}/src`)).toEqual([]);
      expect(r.code).toBe(0);
      expect(readFileSync(p.result, 'utf8')).toBe('# Findings\n\nnone\n');
      expect(p.statusOf()).toMatchObject({
        status: 'completed',
        answer: { source: 'claude-result', wroteResult: true },
        usage: { source: 'claude-stream-json', turns: 5 },
        endOfTurn: { source: 'claude-stream-json', signal: 'end-turn', event: 'result/success', stopReason: 'end_turn', errors: [] },
      });
    } finally {
      await api.close();
    }
  });
});

describe('codex (real binary): exec in the workspace-write sandbox outside git, up to the API connection', () => {
  const CONNECTING = /Connection refused|failed to connect/;
  // The header and the first connection attempt are printed concurrently: wait for both.
  const headerAndConnect = (out: string) => /^sandbox: .*\n/m.test(out) && CONNECTING.test(out);

  it('the bundled --json launch starts a thread and reaches the refused connection; no trusted-directory or argv error', async () => {
    const p = makeProject();
    const launch = await launchFor('codex', p);
    // Stopped at its first typed `error` event about the refused connection.
    const until = /"type":"error","message":"[^"\n]*Connection refused[^\n]*\n/;
    const r = await runCli(CODEX_BIN, launch.args, { cwd: p.root, env: offlineEnv(p.home, await refusingPort()), stdin: 'hello', until });
    const all = r.stdout + r.stderr;
    expect(all).not.toMatch(/Not inside a trusted directory|unexpected argument|Usage: codex|No such file or directory/);
    expect(r.stopped).toBe(true);
    const events = jsonLines(r.stdout);
    expect(CodexThreadStarted.parse(events[0]).thread_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.some((e) => CodexError.safeParse(e).success && /Connection refused/.test((e as { message: string }).message))).toBe(true);
  });

  it('its header (the same argv without --json): sandbox workspace-write on the workdir alone (no /tmp, no $TMPDIR), approval never, workdir the delivery directory', async () => {
    const p = makeProject();
    const launch = await launchFor('codex', p);
    const human = launch.args.filter((a) => a !== '--json');
    expect(human).toHaveLength(launch.args.length - 1);
    const r = await runCli(CODEX_BIN, human, { cwd: p.root, env: offlineEnv(p.home, await refusingPort()), stdin: 'hello', until: headerAndConnect });
    expect(r.stderr).toMatch(/^sandbox: workspace-write \[workdir\]$/m);
    expect(r.stderr).toMatch(/^approval: never$/m);
    expect(r.stderr).toContain(`\nworkdir: ${launch.values.writeRoot}\n`);
    expect(launch.values.writeRoot).toBe(dirname(p.result));
  });

  it('an implementer works in the project root', async () => {
    const p = makeProject();
    const launch = await launchFor('codex', p, 'executor');
    const human = launch.args.filter((a) => a !== '--json');
    const r = await runCli(CODEX_BIN, human, { cwd: p.root, env: offlineEnv(p.home, await refusingPort()), stdin: 'hello', until: headerAndConnect });
    expect(r.stderr).toContain(`\nworkdir: ${p.root}\n`);
    expect(r.stderr).toMatch(/^sandbox: workspace-write /m);
  });
});

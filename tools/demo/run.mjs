#!/usr/bin/env node
// `npm run demo [-- --keep] [-- --output DIR]`: the main job end to end on the
// sample project in examples/, through the real bins, in a temp copy. Each
// step is a module in steps/ (run in name order) exporting
// `default async (ctx) => ({ ok, summary })`. A step that cannot run says so;
// the demo never reports work it did not do.
//
// The build runs first with its output captured (shown only when it fails),
// so the first lines are the demo's own; a progress line per project built goes to stderr. What a person may want to look at
// afterwards (the transcript, the convergence and plan-items states, the
// error-issue plan) is copied to DIR (default: demo-output/ of the repository,
// git-ignored); the temp copy is deleted unless --keep.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { makeWorkDir, repoRoot, run } from './context.mjs';

const { values: flags } = parseArgs({ options: { keep: { type: 'boolean', default: false }, output: { type: 'string' } } });
const outputDir = resolve(flags.output ?? join(repoRoot, 'demo-output'));
const transcript = [];
const log = (line = '') => {
  transcript.push(line);
  process.stdout.write(line + '\n');
};

if (!process.env.OKSTRA_DEMO_BIN_DIR) {
  log('== build: nx run-many -t build (one line per project built; its output is shown only if it fails)');
  const started = Date.now();
  const status = await build();
  if (status.code !== 0) {
    process.stdout.write(status.output);
    log(`FAILED: the build exited ${status.code}`);
    process.exit(1);
  }
  log(`ok: built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  log('');
}

/**
 * The build, its output kept (printed only if it fails): a line on stderr as each project's build starts
 * (`  build #3: okstra-convergence`), so the first run's minutes of building are not silent. The line is
 * progress, not the demo's transcript.
 */
function build() {
  const nx = join(repoRoot, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
  const child = spawn(process.execPath, [nx, 'run-many', '-t', 'build', '--parallel=2', '--outputStyle=static'], {
    cwd: repoRoot,
    env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let seen = 0;
  let pending = '';
  const read = (chunk) => {
    output += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      const m = /^> nx run ([^:\s]+):build/.exec(line.trim());
      if (m) process.stderr.write(`  build #${++seen}: ${m[1]}${line.includes('[local cache]') || line.includes('[existing outputs') ? ' (cached)' : ''}\n`);
    }
  };
  child.stdout.setEncoding('utf8').on('data', read);
  child.stderr.setEncoding('utf8').on('data', (c) => (output += c));
  return new Promise((done) => child.on('close', (code) => done({ code: code ?? 1, output })));
}

const workDir = makeWorkDir();
log(`okstra demo — working copy of examples/ in ${workDir}${flags.keep ? ' (kept: --keep)' : ' (deleted at the end; --keep keeps it)'}`);

const stepsDir = join(repoRoot, 'tools', 'demo', 'steps');
const steps = readdirSync(stepsDir)
  .filter((f) => f.endsWith('.mjs'))
  .sort();
let failed = 0;
for (const file of steps) {
  const step = await import(pathToFileURL(join(stepsDir, file)).href);
  log('');
  log(`== ${step.title ?? file}`);
  try {
    const result = await step.default({ workDir, run, log, repoRoot, outputDir });
    if (!result?.ok) {
      failed++;
      log(`FAILED: ${result?.summary ?? 'step reported no result'}`);
    } else {
      log(`ok: ${result.summary}`);
    }
  } catch (error) {
    failed++;
    log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}
log('');
keepArtifacts();
log(
  failed
    ? `demo: ${failed} of ${steps.length} steps failed (what they produced is in ${outputDir})`
    : `demo: all ${steps.length} steps ran (what they produced is in ${outputDir})`,
);
writeFileSync(join(outputDir, 'demo.log'), transcript.join('\n') + '\n');
if (!flags.keep) rmSync(workDir, { recursive: true, force: true });
if (failed) process.exitCode = 1;

/** Copy what a person may want to look at into the output folder (replacing the last run's). */
function keepArtifacts() {
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync(outputDir, { recursive: true });
  const task = join(workDir, 'sample-project', '.okstra', 'tasks', 'payments', 'refund-timeout', 'runs');
  const copies = [
    [join(task, 'error-analysis', 'state'), 'convergence'],
    [join(task, 'implementation-planning', 'state'), 'plan-items'],
    [join(workDir, 'error-issue-plan.json'), 'error-issue-plan.json'],
    [join(workDir, 'autopilot-project', 'convergence-view.html'), 'convergence-view-autopilot.html'],
    [join(workDir, 'disagreement-project', 'convergence-view.html'), 'convergence-view.html'],
  ];
  for (const [from, to] of copies) if (existsSync(from)) cpSync(from, join(outputDir, to), { recursive: true });
}

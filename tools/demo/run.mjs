#!/usr/bin/env node
// `npm run demo`: the main job end to end on the sample project in examples/,
// through the real bins, in a temp copy. Each step is a module in steps/
// (run in name order) exporting `default async (ctx) => ({ ok, summary })`.
// A step that cannot run says so; the demo never reports work it did not do.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeWorkDir, repoRoot, run } from './context.mjs';

const workDir = makeWorkDir();
const log = (line = '') => process.stdout.write(line + '\n');
log(`okstra demo — working copy of examples/ in ${workDir}`);

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
    const result = await step.default({ workDir, run, log, repoRoot });
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
if (failed) {
  log(`demo: ${failed} of ${steps.length} steps failed (artifacts left in ${workDir})`);
  process.exitCode = 1;
} else {
  log(`demo: all ${steps.length} steps ran (artifacts left in ${workDir})`);
}

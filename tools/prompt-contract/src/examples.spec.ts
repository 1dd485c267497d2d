import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHeartbeatLine } from '@okstra/heartbeat';
import { JobsFile } from '@okstra/schemas/jobs-file';
import { corpusExamples } from './corpus.js';
import type { ExampleBlock } from './markdown.js';
import { okstra } from './run-tool.js';

/**
 * Every example block a worker-facing text teaches goes through the real
 * parser of that format (docs/contracts.md §7), so a prompt can never teach a
 * format the tools refuse.
 */
// gap-vote (prompts/workers/gap-vote.md) goes through the real collect-critic-gaps in apps/okstra-convergence/src/collect-critic-gaps.spec.ts.
const KINDS = [
  'heartbeat',
  'heartbeat-command',
  'evidence-ledger',
  'reverify-adversarial',
  'reverify-collaborative',
  'gap-vote',
  'plan-verdicts',
  'jobs-file',
] as const;
const examples = corpusExamples();
const at = (e: ExampleBlock) => `${e.file}:${e.line}`;
const ofKind = (kind: string) => examples.filter((e) => e.kind === kind);

const tmp = mkdtempSync(join(tmpdir(), 'prompt-examples-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
/** A fresh directory per case. */
const scratch = () => join(tmp, String(++n));
/** The `### <id>` headings of an example, in order (the ids the parser must answer for). */
const headingIds = (text: string) => [...text.matchAll(/^### (\S+)/gm)].map((m) => m[1]);

describe('example blocks in prompts/ and skills/', () => {
  it('teach every format the tools parse, and only those', () => {
    expect([...new Set(examples.map((e) => e.kind))].sort()).toEqual([...KINDS].sort());
  });

  it.each(ofKind('heartbeat').map((e) => [at(e), e] as const))('heartbeat %s: every line parses with libs/heartbeat', (_at, e) => {
    const lines = e.value.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    lines.forEach((line, i) => expect(parseHeartbeatLine(line), `${e.file}:${e.line + i}: not a heartbeat: ${line}`).not.toBeNull());
  });

  it.each(ofKind('heartbeat-command').map((e) => [at(e), e] as const))('heartbeat command %s: run by sh, appends a heartbeat of the current time', (_at, e) => {
    const sidecar = write(join(scratch(), 'codex.audit.md'), '# Audit\n');
    execFileSync('sh', ['-c', e.value.replaceAll('<audit-sidecar>', `'${sidecar}'`)]);
    const added = readFileSync(sidecar, 'utf8').split('\n').slice(1).filter(Boolean);
    expect(added.length, at(e)).toBe(1);
    const hb = parseHeartbeatLine(added[0]);
    expect(hb, `${at(e)}: wrote '${added[0]}'`).not.toBeNull();
    // The command must take the time from the clock, not from a literal.
    expect(Math.abs(hb!.at.getTime() - Date.now())).toBeLessThan(600_000);
  });

  it.each(ofKind('jobs-file').map((e) => [at(e), e] as const))('jobs file %s: valid under the jobs-file schema', (_at, e) => {
    const parsed = JobsFile.safeParse(JSON.parse(e.value));
    expect(parsed.error?.issues ?? [], at(e)).toEqual([]);
  });

  it.each(ofKind('plan-verdicts').map((e) => [at(e), e] as const))('plan verdicts %s: okstra plan-items collect-verdicts reads every block', async (_at, e) => {
    const dir = scratch();
    const ids = headingIds(e.value);
    const items = ids.map((id) => ({
      id,
      kind: id.startsWith('P-Rb') ? 'rollback' : 'step',
      stage: 2,
      source: `$.x.${id}`,
      clarificationId: null,
      content: {},
    }));
    const itemsFile = write(join(dir, 'items.json'), JSON.stringify({ schemaVersion: '1.0', items }));
    const response = write(join(dir, 'claude-plan-verify.md'), `Preamble the worker wrote.\n\n${e.value}\n`);
    const out = join(dir, 'verdicts.json');
    const run = await okstra('plan-items', 'collect-verdicts', '--result', `claude=${response}`, '--items', itemsFile, '--output', out);
    expect(run.code, `${at(e)}: ${run.stderr}`).toBe(0);
    const envelope = JSON.parse(readFileSync(out, 'utf8'));
    const got = envelope.items.map((i: { id: string; verdicts: Array<Record<string, unknown>> }) => [
      i.id,
      i.verdicts[0].verdict,
      i.verdicts[0].breakageKind,
      i.verdicts[0].fixability,
    ]);
    expect(got.map((g: unknown[]) => g[0])).toEqual(ids);
    expect(new Set(got.map((g: unknown[]) => g[1])), `${at(e)}: teach all three verdicts`).toEqual(new Set(['AGREE', 'DISAGREE', 'SUPPLEMENT']));
    for (const g of got.filter((g: unknown[]) => g[1] === 'DISAGREE'))
      expect(g[2] !== null && g[3] !== null, `${at(e)}: ${g[0]} kind and fixability`).toBe(true);
  });

  it.each(ofKind('evidence-ledger').map((e) => [at(e), e] as const))(
    'evidence ledger %s: okstra worker-audit-check passes a result whose citations it lists, and fails one row short',
    async (_at, e) => {
      const result = ofKind('reverify-adversarial')[0]?.value;
      expect(result, 'an adversarial example to cite from').toBeDefined();
      const sidecar = `${ofKind('heartbeat')[0]?.value ?? ''}\n\n${e.value}\n`;
      const run = async (ledger: string) => {
        const runDir = join(scratch(), '.okstra/tasks/billing/T-12/runs/error-analysis');
        write(join(runDir, 'prompts/codex-prompt-error-analysis-001.md'), '# Task\n\n<!-- okstra:evidence-ledger required-v1 -->\n');
        write(join(runDir, 'worker-results/codex-error-analysis-001.md'), result!);
        write(join(runDir, 'worker-results/codex-error-analysis-001.audit.md'), ledger);
        return okstra('worker-audit-check', '--run-dir', runDir, '--task-type', 'error-analysis', '--seq', '001', '--worker', 'codex');
      };
      const pass = await run(sidecar);
      expect(JSON.parse(pass.stdout), at(e)).toMatchObject({ ok: true, failures: [] });
      expect(pass.code).toBe(0);

      const rows = sidecar.split('\n');
      const last = rows
        .map((l) => /^\| `([^`]+)`/.exec(l)?.[1])
        .filter(Boolean)
        .pop();
      const short = await run(rows.filter((l) => !l.startsWith(`| \`${last}\``)).join('\n'));
      expect(short.code).toBe(2);
      expect(JSON.parse(short.stdout).failures.map((f: { citation?: string }) => f.citation)).toEqual([last]);
    },
  );
});

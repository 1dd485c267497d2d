import { describe, expect, it } from 'vitest';
import { BUNDLED_PROVIDERS, buildLaunch, launchValuesOf, structuredAnswerOf, type RegisteredProvider } from './index.js';

const run = '/proj/.okstra/tasks/g/t/runs/error-analysis';
const job = {
  model: 'm',
  role: 'worker-reverify-r2',
  projectRoot: '/proj',
  promptPath: `${run}/prompts/codex-prompt-reverify-r2-error-analysis-001.md`,
  resultPath: `${run}/worker-results/codex-reverify-r2-error-analysis-001.md`,
  completionPaths: [`${run}/worker-results/codex-reverify-r2-error-analysis-001.md`],
  auditSidecarPath: null,
};
const bundled = (id: string): RegisteredProvider => ({ manifest: BUNDLED_PROVIDERS.find((p) => p.id === id)!, source: 'bundled', dir: null });

describe('schema-bound launches (docs/providers.md "Structured output")', () => {
  it('the vote rounds of claude and codex, their retries and repairs, are schema-bound; other rounds and other providers are not', () => {
    for (const kind of ['reverify-r1', 'reverify-r12-retry', 'repair-reverify-r2', 'gap-vote', 'repair-gap-vote', 'plan-verify', 'plan-verify-retry'])
      for (const id of ['claude', 'codex']) expect(structuredAnswerOf(bundled(id).manifest, kind, job.resultPath), `${id} ${kind}`).not.toBeNull();
    for (const kind of ['initial', 'report-writer', 'reverify-r0', 'reverify', 'critic', 'repair-initial'])
      expect(structuredAnswerOf(bundled('claude').manifest, kind, job.resultPath), kind).toBeNull();
    for (const id of ['antigravity', 'grok', 'kimi']) expect(structuredAnswerOf(bundled(id).manifest, 'reverify-r1', job.resultPath), id).toBeNull();
    expect(structuredAnswerOf(bundled('codex').manifest, 'plan-verify', job.resultPath)).toEqual({
      kind: 'plan-verify',
      recordPath: `${run}/worker-results/codex-reverify-r2-error-analysis-001.answer.json`,
    });
  });

  it('claude gets the schema inline (--json-schema, one line), codex a file (--output-schema) after its argv', () => {
    const values = launchValuesOf({ ...job, answerKind: 'reverify' });
    const claude = buildLaunch(bundled('claude'), values, job.role).args;
    expect(claude.slice(-2, -1)).toEqual(['--json-schema']);
    expect(JSON.parse(claude.at(-1)!)).toMatchObject({ type: 'object', required: ['votes'], additionalProperties: false });
    expect(claude.at(-1)).not.toContain('\n');
    const codex = buildLaunch(bundled('codex'), values, job.role).args;
    expect(codex.slice(-3)).toEqual(['-', '--output-schema', `${run}/prompts/codex-prompt-reverify-r2-error-analysis-001.answer-schema.json`]);
    // Not schema-bound: the argv as before.
    expect(buildLaunch(bundled('codex'), launchValuesOf(job), job.role).args.at(-1)).toBe('-');
  });

  it('a user manifest that puts {answerSchema} in its plain argv is refused, naming the field', () => {
    const manifest = { ...bundled('kimi').manifest, id: 'mine', argv: ['--schema', '{answerSchema}'] };
    expect(() => buildLaunch({ manifest, source: 'user', dir: '/home/u/.okstra/adapters/providers/mine' }, launchValuesOf(job), job.role)).toThrow(
      /unknown placeholder \{answerSchema\} \(only answerSchemaArgv takes it\)/,
    );
  });
});

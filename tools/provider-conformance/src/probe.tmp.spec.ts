import { it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedModel } from './support/scripted-model.js';
import { CLAUDE_BIN, CODEX_BIN, CODEX_MODEL, runCli, scriptedWorkerEnv } from './support/real-cli.js';

const schema = {
  type: 'object',
  properties: {
    votes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, verdict: { type: 'string', enum: ['AGREE', 'DISAGREE'] } },
        required: ['id', 'verdict'],
        additionalProperties: false,
      },
    },
  },
  required: ['votes'],
  additionalProperties: false,
};
it('probe', async () => {
  const obj = { votes: [{ id: 'F-001', verdict: 'AGREE' }] };
  const api = await startScriptedModel((results, req) => {
    const tools = req.tools;
    if (req.api === 'anthropic') {
      if (results.length === 0) return { tool: 'StructuredOutput', input: obj };
      return { text: 'done' };
    }
    return { text: JSON.stringify(obj) };
  });
  const dir = mkdtempSync('/tmp/sv-probe/p-');
  const home = join(dir, 'home');
  const env = await scriptedWorkerEnv(home, api.url, 'nosock', 250);
  writeFileSync(join(dir, 'schema.json'), JSON.stringify(schema));
  const c = await runCli(
    CLAUDE_BIN,
    [
      '-p',
      '--model',
      'sonnet',
      '--output-format=stream-json',
      '--verbose',
      '--permission-mode',
      'dontAsk',
      '--tools',
      'Read',
      '--json-schema',
      JSON.stringify(schema),
    ],
    { cwd: dir, env, stdin: 'answer please', timeoutMs: 60000 },
  );
  writeFileSync('/tmp/sv-probe/claude.out', c.stdout + '\n---\n' + c.stderr + `\ncode ${c.code}`);
  const x = await runCli(
    CODEX_BIN,
    [
      'exec',
      '--json',
      '--model',
      CODEX_MODEL,
      '--skip-git-repo-check',
      '--output-last-message',
      join(dir, 'last.txt'),
      '-',
      '--output-schema',
      join(dir, 'schema.json'),
    ],
    { cwd: dir, env, stdin: 'answer please', timeoutMs: 60000 },
  );
  writeFileSync('/tmp/sv-probe/codex.out', x.stdout + '\n---\n' + x.stderr + `\ncode ${x.code}`);
  writeFileSync(
    '/tmp/sv-probe/requests.json',
    JSON.stringify(
      api.requests().map((r) => ({ api: r.api, path: r.path, tools: r.tools, body: r.body })),
      null,
      1,
    ),
  );
  await api.close();
}, 120000);

import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandRefs, createEvidenceRecorder, resolveEvidence } from './index.js';

const paths = (cmd: string) => commandRefs(cmd, 'Bash').map((r) => `${r.how}:${r.path}${r.cwd ? `@${r.cwd}` : ''}`);

describe('what a shell command reads, searches or lists', () => {
  it('readers, searchers and listers, through bash -lc, pipes, chains and cd', () => {
    expect(paths("/bin/bash -lc 'cat src/a.ts && rg -n foo src/lib'")).toEqual(['read:src/a.ts', 'searched:foo', 'searched:src/lib']);
    expect(paths('sed -n 1,20p src/a.ts | head -n 5')).toEqual(['read:1,20p', 'read:src/a.ts']);
    expect(paths('cd src; nl -ba a.ts')).toEqual(['read:a.ts@src']);
    expect(paths('grep -n retry src/q.ts')).toEqual(['searched:retry', 'searched:src/q.ts']);
    expect(paths('rg retries')).toEqual(['searched:retries', 'searched:.']);
    expect(paths('git show HEAD:src/a.ts')).toEqual(['read:src/a.ts']);
    expect(paths('ls -la src')).toEqual(['listed:src']);
    expect(paths('echo hi > out.txt; npm test')).toEqual([]);
    expect(paths("cat 'unbalanced")).toEqual([]);
  });
});

describe('the recorder and the resolution against the project', () => {
  it('claude tool_use events, codex command items (once per item) and rollout exec_command calls with their workdir', () => {
    const claude = createEvidenceRecorder('claude-stream-json')!;
    claude.push(JSON.stringify({ type: 'system', subtype: 'init', cwd: '/p' }));
    claude.push(
      JSON.stringify({
        type: 'assistant',
        message: {
          content: [
            { type: 'tool_use', name: 'Read', input: { file_path: '/p/a.ts', offset: 10, limit: 5 } },
            { type: 'text', text: 'x' },
          ],
        },
      }),
    );
    claude.push('not json');
    expect(claude.refs()).toEqual([{ path: '/p/a.ts', how: 'read', tool: 'Read', cwd: null, lines: [10, 14] }]);
    expect(claude.cwd()).toBe('/p');
    const codex = createEvidenceRecorder('codex-jsonl')!;
    const item = { id: 'item_0', type: 'command_execution', command: "/bin/bash -lc 'cat a.ts'" };
    codex.push(JSON.stringify({ type: 'item.started', item }));
    codex.push(JSON.stringify({ type: 'item.completed', item }));
    codex.pushRollout(
      JSON.stringify({
        type: 'response_item',
        payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'cat b.ts', workdir: '/p/src' }) },
      }),
    );
    expect(codex.refs().map((r) => [r.path, r.cwd])).toEqual([
      ['a.ts', null],
      ['b.ts', '/p/src'],
    ]);
    expect(createEvidenceRecorder('none')).toBeNull();
  });

  it('keeps what names a file inside the project (real path), counts what leads out, merges per path and kind', () => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-evidence-'));
    const root = join(base, 'project');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'src/a.ts'), 'a\n');
    writeFileSync(join(base, 'secret.ts'), 's\n');
    symlinkSync(join(base, 'secret.ts'), join(root, 'src/link.ts'));
    const { entries, outside } = resolveEvidence(
      [
        { path: join(root, 'src/a.ts'), how: 'read', tool: 'Read', cwd: null, lines: [1, 1] },
        { path: 'a.ts', how: 'read', tool: 'Bash', cwd: 'src' },
        { path: 'src/link.ts', how: 'read', tool: 'Bash', cwd: null },
        { path: '../secret.ts', how: 'read', tool: 'Bash', cwd: null },
        { path: 'src', how: 'read', tool: 'Bash', cwd: null },
        { path: 'missing.ts', how: 'read', tool: 'Bash', cwd: null },
        { path: 'src', how: 'searched', tool: 'Grep', cwd: null },
      ],
      root,
      root,
    );
    expect(entries).toEqual([
      { path: 'src', how: 'searched', tools: ['Grep'] },
      { path: 'src/a.ts', how: 'read', tools: ['Bash', 'Read'] },
    ]);
    expect(outside).toBe(2);
  });
});

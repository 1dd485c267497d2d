import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Code, InlineCode, Nodes } from 'mdast';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, textFiles } from './corpus.js';

/**
 * The seeds' never-prompt rule (lead contract and claude-worker, 0.164.0):
 * `cp`, `mv` and `rm` are commonly aliased to `-i` in the user's shell, so a
 * shell line a text gives must invoke them as `command cp` / `command mv` /
 * `command rm`. A bare one at the start of a simple command is a violation.
 */
const BARE = /(?:^|[;&|(]\s*|\bthen\s+|\bdo\s+|\$\(\s*)(cp|mv|rm)(?=\s)/;

function shellText(markdown: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  const visit = (n: Nodes) => {
    if (n.type === 'code' && (!n.lang || ['sh', 'bash', 'shell', 'console', 'zsh'].includes(n.lang))) {
      (n as Code).value.split('\n').forEach((text, i) => out.push({ line: (n.position?.start.line ?? 0) + 1 + i, text: text.replace(/^\s*\$\s+/, '') }));
    } else if (n.type === 'inlineCode') {
      out.push({ line: n.position?.start.line ?? 0, text: (n as InlineCode).value });
    }
    if ('children' in n) (n.children as Nodes[]).forEach(visit);
  };
  visit(fromMarkdown(markdown));
  return out;
}

/** `file:line: text` of every bare cp/mv/rm in shell fences and inline code of a Markdown text. */
function barePromptingCommands(markdown: string, file: string): string[] {
  return shellText(markdown)
    .filter(({ text }) => BARE.test(text.trim()) && !/\bcommand\s+(cp|mv|rm)\b/.test(text))
    .map(({ line, text }) => `${file}:${line}: ${text.trim()}`);
}

describe('the never-prompt rule', () => {
  it('no text in prompts/ or skills/ runs a bare cp, mv or rm', () => {
    const found = textFiles().flatMap((f) => barePromptingCommands(readFileSync(join(REPO_ROOT, f), 'utf8'), f));
    expect(found).toEqual([]);
  });

  it('catches the bare forms and accepts the command forms', () => {
    const md = ['```sh', 'cp a b', 'command cp a b', 'test -f x && rm x', 'command rm x', '```', '', 'Run `mv a b` or `command mv a b`.'].join('\n');
    expect(barePromptingCommands(md, 'f.md')).toEqual(['f.md:2: cp a b', 'f.md:4: test -f x && rm x', 'f.md:8: mv a b']);
  });
});

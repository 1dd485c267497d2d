import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import type { Code, InlineCode, Nodes } from 'mdast';
import { splitShellLine } from './shell-words.js';

/** One okstra command line found in a Markdown file; `line` is 1-based. */
export interface CommandLine {
  file: string;
  line: number;
  /** The command's words, shell quoting removed, starting with `okstra` or `okstra-<bin>`. */
  words: string[];
  /** The command as written (for messages). */
  text: string;
  /**
   * `fence`: a line of a shell code block, meant to be run as is.
   * `inline`: an inline code span; one that names only a command path
   * (`okstra team await`) is a reference and need not carry required flags.
   */
  origin: 'fence' | 'inline';
}

/** One example block (a fenced block whose info string carries `example=<kind>`). */
export interface ExampleBlock {
  file: string;
  /** 1-based line of the block's first content line. */
  line: number;
  kind: string;
  value: string;
}

/** Fence languages whose lines are shell commands (no language counts too). */
const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh']);
/** The first word of an okstra command: the umbrella or a tool bin. */
const COMMAND_HEAD = /^okstra(-[a-z][a-z0-9-]*)?$/;

function walk(node: Nodes, visit: (n: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child as Nodes, visit);
}

function codeNodes(markdown: string): { fences: Code[]; spans: InlineCode[] } {
  const fences: Code[] = [];
  const spans: InlineCode[] = [];
  // GFM tables: the adapters' operation tables hold command lines in their cells.
  walk(fromMarkdown(markdown, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] }), (n) => {
    if (n.type === 'code') fences.push(n);
    else if (n.type === 'inlineCode') spans.push(n);
  });
  return { fences, spans };
}

/**
 * Every okstra command line of a Markdown text, parsed with a real Markdown
 * parser: each line of a shell fence (`sh`, `bash`, `shell`, `console`, `zsh`
 * or no language; `\` continuations joined; `$ ` prompts, `&&`/`||`/`;`/`|`
 * segments and redirections handled by {@link splitShellLine}) whose segment
 * starts with `okstra`/`okstra-<bin>` (after `timeout N`, `env X=Y`, inside a
 * subshell or a substitution), and every such segment of an inline code span.
 * A lone `okstra-<name>` span (a skill name such as `okstra-inspect`) is not a
 * command line; the caller decides which `okstra-<name>` are bins.
 */
export function extractCommandLines(markdown: string, file: string): CommandLine[] {
  const out: CommandLine[] = [];
  const { fences, spans } = codeNodes(markdown);
  for (const fence of fences) {
    if (fence.lang && !SHELL_LANGS.has(fence.lang)) continue;
    const first = (fence.position?.start.line ?? 0) + 1;
    const lines = fence.value.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const start = i;
      let text = lines[i];
      while (/\\\s*$/.test(text) && i + 1 < lines.length) text = text.replace(/\\\s*$/, ' ') + lines[++i];
      for (const words of splitShellLine(text.replace(/^\s*\$\s+/, ''))) {
        if (words.length > 0 && COMMAND_HEAD.test(words[0])) {
          out.push({ file, line: first + start, words, text: words.join(' '), origin: 'fence' });
        }
      }
    }
  }
  for (const span of spans) {
    for (const words of splitShellLine(span.value)) {
      if (words.length === 0 || !COMMAND_HEAD.test(words[0])) continue;
      if (words.length === 1 && words[0] !== 'okstra') continue; // a skill or bin name, not a command line
      out.push({ file, line: span.position?.start.line ?? 0, words, text: span.value, origin: 'inline' });
    }
  }
  return out.sort((a, b) => a.line - b.line);
}

/** Every fenced block whose info string holds `example=<kind>` (e.g. ```` ```markdown example=plan-verdicts ````). */
export function extractExampleBlocks(markdown: string, file: string): ExampleBlock[] {
  return codeNodes(markdown)
    .fences.map((fence) => ({ fence, kind: /(?:^|\s)example=([a-z0-9-]+)/.exec(fence.meta ?? '')?.[1] }))
    .filter((x): x is { fence: Code; kind: string } => x.kind !== undefined)
    .map(({ fence, kind }) => ({ file, line: (fence.position?.start.line ?? 0) + 1, kind, value: fence.value }));
}

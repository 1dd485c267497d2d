import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import { toString } from 'mdast-util-to-string';
import type { Table } from 'mdast';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.js';

const DIR = join(REPO_ROOT, 'skills/okstra-inspect');

/** The dispatch table rows of skills/okstra-inspect/SKILL.md: sub-command, facet path, line. */
function dispatchRows() {
  const tree = fromMarkdown(readFileSync(join(DIR, 'SKILL.md'), 'utf8'), { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] });
  const table = tree.children.find((n): n is Table => n.type === 'table' && toString(n.children[0].children[0]) === 'Sub-command');
  if (!table) throw new Error('skills/okstra-inspect/SKILL.md: no dispatch table (first header cell "Sub-command")');
  return table.children.slice(1).map((row) => ({
    sub: toString(row.children[0]),
    facet: toString(row.children[1]),
    line: row.position?.start.line ?? 0,
  }));
}

describe('skills/okstra-inspect', () => {
  it('has a dispatch row for run-audit and error-issue at least', () => {
    expect(dispatchRows().map((r) => r.sub)).toEqual(expect.arrayContaining(['run-audit', 'error-issue']));
  });

  it('maps every dispatch row to facets/<sub-command>.md, and the file exists', () => {
    for (const row of dispatchRows()) {
      expect(row.facet, `SKILL.md:${row.line}: facet of '${row.sub}'`).toBe(`facets/${row.sub}.md`);
      expect(existsSync(join(DIR, row.facet)), `SKILL.md:${row.line}: ${row.facet} does not exist`).toBe(true);
    }
  });

  it('has no facet file without a dispatch row', () => {
    const rows = new Set(dispatchRows().map((r) => r.facet));
    const orphans = readdirSync(join(DIR, 'facets'))
      .map((f) => `facets/${f}`)
      .filter((f) => !rows.has(f));
    expect(orphans, 'facet files with no row in SKILL.md').toEqual([]);
  });

  it('names its own sub-command in each facet title', () => {
    for (const row of dispatchRows()) {
      const first = readFileSync(join(DIR, row.facet), 'utf8').split('\n')[0];
      expect(first, `${row.facet}:1`).toBe(`# okstra-inspect ${row.sub}`);
    }
  });
});

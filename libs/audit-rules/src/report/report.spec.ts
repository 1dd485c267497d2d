import { describe, expect, it } from 'vitest';
import { blocksApproval, clarificationItems, isOpen } from './clarification-items.js';
import { isApproved, publishesApproved, readFrontmatter } from './frontmatter.js';

describe('frontmatter approval marker (YAML, not a regex)', () => {
  it('recognises every YAML spelling of approved: true', async () => {
    for (const fm of [
      'approved: true',
      '"approved": true',
      'approved : true',
      "'approved': True",
      'approved: TRUE',
      'title: x\napproved: "true"  # by the user',
    ])
      expect(await publishesApproved(`---\n${fm}\n---\n# R\n`), fm).toBe(true);
  });
  it('false, absent, elsewhere in the body, or no frontmatter: not approved', async () => {
    for (const md of [
      '---\napproved: false\n---\n',
      '---\ntitle: x\n---\napproved: true\n',
      '# no frontmatter\napproved: true\n',
      '---\nnested:\n  approved: true\n---\n',
    ])
      expect(await publishesApproved(md), md).toBe(false);
  });
  it('frontmatter that is not YAML is reported, not silently read as unapproved', async () => {
    const fm = await readFrontmatter('---\napproved: true\nx: [1\n---\n');
    expect(fm.ok).toBe(false);
    expect(isApproved(null)).toBe(false);
  });
});

describe('## 1. Clarification Items rows', () => {
  const report = [
    '# Report',
    '## 1. Clarification Items',
    '',
    '| ID | Kind | Blocks | Status | Statement |',
    '|---|---|---|---|---|',
    '| C-001 | decision | approval | open | P-Step-1-1 must be re-planned |',
    '| `C-002` | question | **next-phase** | answered | naming |',
    '',
    '### C-003 Which queue?',
    '- Blocks: approval',
    '- Status: resolved',
    '```',
    '| C-009 | x | approval | open | fenced |',
    '```',
    '## 2. Findings',
    '| C-010 | x | approval | open | outside the section |',
  ].join('\n');
  it('reads table rows by header name and C-<n> sub-headings, only inside the section', () => {
    const items = clarificationItems(report);
    expect(items.map((i) => [i.id, i.blocks, i.status])).toEqual([
      ['C-001', 'approval', 'open'],
      ['C-002', 'next-phase', 'answered'],
      ['C-003', 'approval', 'resolved'],
    ]);
    expect(items.filter((i) => blocksApproval(i) && isOpen(i)).map((i) => i.id)).toEqual(['C-001']);
  });
  it('no section, no rows', () => {
    expect(clarificationItems('# R\n| C-001 | approval | open |\n')).toEqual([]);
  });
  it('reads Status and Blocks as words: marks, emphasis, links, struck-through old values and CJK status words', () => {
    const rows = (statuses: string[], heading = '## 1. Clarification Items') =>
      clarificationItems([heading, '| ID | Blocks | Status |', '|---|---|---|', ...statuses.map((s, i) => `| C-00${i + 1} | approval | ${s} |`)].join('\n'));
    const closed = ['✅ resolved', '_answered_', '[answered](../user-responses/r.md)', '~~open~~ resolved', '해결됨', '답변 완료', '回答済み', '已解决'];
    expect(rows(closed).filter(isOpen)).toEqual([]);
    const open = ['~~resolved~~ open', '미해결', '⏳ pending', '답변 대기', 'not resolved', ''];
    expect(
      rows(open)
        .filter(isOpen)
        .map((i) => i.id),
    ).toEqual(['C-001', 'C-002', 'C-003', 'C-004', 'C-005', 'C-006']);
    expect(blocksApproval(clarificationItems('## 1. Clarification Items\n| ID | Blocks |\n|---|---|\n| C-001 | ~~approval~~ none |')[0]!)).toBe(false);
    for (const heading of ['## **1. Clarification Items**', '## 1) Clarification Items', '## 1. 확인 필요 항목 (Clarification Items)'])
      expect(rows(['open'], heading).map((i) => i.id)).toEqual(['C-001']);
    expect(rows(['open'], '## 10. Clarification Items')).toEqual([]);
  });
});

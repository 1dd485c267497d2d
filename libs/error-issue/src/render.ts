import { createHash } from 'node:crypto';
import type { IssueClassification } from '@okstra/schemas/error-issue';
import type { Cluster } from './cluster.js';
import { INVARIANTS } from '@okstra/audit-rules';

/** GitHub's limit on an issue or comment body, in characters. */
export const GITHUB_BODY_LIMIT = 65_536;

/** The HTML comment carrying a cluster's fingerprint in every body okstra sends. */
export function fingerprintMarker(fp: string): string {
  return `<!-- okstra-fingerprint: ${fp} -->`;
}

/** The HTML comment carrying the evidence digest (counts only) of what was reported. */
export function evidenceMarker(digest: string): string {
  return `<!-- okstra-evidence: ${digest} -->`;
}

/** Digest of a cluster's counts and class — no identities — 12 hex. */
export function evidenceDigest(c: Cluster, classification: IssueClassification): string {
  const counts = `${c.fingerprint}|${classification}|${c.records}|${c.runs.size}|${c.projects.size}`;
  return createHash('sha256').update(counts).digest('hex').slice(0, 12);
}

/** The rendered, anonymized texts of one candidate. */
export interface RenderedIssue {
  title: string;
  body: string;
  commentBody: string;
}

/** The longest title okstra sends; run-audit titles (`[okstra-defect] run-audit <id>: <summary>`) always fit whole. */
export const TITLE_MAX = 128;

const FOOTER = 'Filed by okstra error-issue after explicit approval. Identifying details were removed before sending.';

/**
 * okstra's own fixed texts: the run-audit catalogue (each `run-audit <id>:
 * <summary>` headline) and the body template's lines. The last gate blanks
 * them before its detectors run: they are okstra's constants, not target identity.
 */
export const OKSTRA_TEXTS: readonly string[] = [...INVARIANTS.map((inv) => `run-audit ${inv.id}: ${inv.summary}`), FOOTER].sort((a, b) => b.length - a.length);

/**
 * Render a candidate's title, issue body and follow-up comment body from the
 * cluster's anonymized parts only (docs/error-issue.md "Rendering"). The
 * fingerprint and evidence markers come first so truncation never drops them.
 */
export function renderIssue(c: Cluster, classification: IssueClassification, signals: Record<string, number>): RenderedIssue {
  const digest = evidenceDigest(c, classification);
  const headline = c.origin === 'run-audit' ? `run-audit ${c.kind}: ${c.summary}` : `${c.source}${c.kind ? ` ${c.kind}` : ''}: ${c.summary}`;
  const title = clip(`[${classification}] ${headline}`, TITLE_MAX);
  const signalText =
    Object.entries(signals)
      .map(([name, n]) => `${name} ×${n}`)
      .join(', ') || 'none';
  const taskTypes =
    [...c.taskTypes]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([t, n]) => `${t} ×${n}`)
      .join(', ') || 'unknown';
  const counts = `${c.records} record${c.records === 1 ? '' : 's'} in ${c.runs.size} run${c.runs.size === 1 ? '' : 's'} across ${c.projects.size} project${c.projects.size === 1 ? '' : 's'}`;
  const examples = [...c.examples].map((e) => '```text\n' + e.replace(/```/g, "'''") + '\n```').join('\n\n');
  const body = truncateBody(
    [
      fingerprintMarker(c.fingerprint),
      evidenceMarker(digest),
      '## Summary',
      '',
      headline,
      '',
      '## Occurrences',
      '',
      counts + '.',
      '',
      `Task types: ${taskTypes}.`,
      '',
      '## Classification',
      '',
      `${classification} (signals: ${signalText}).`,
      '',
      '## Examples (anonymized)',
      '',
      examples || '(none)',
      '',
      '---',
      FOOTER,
      '',
    ].join('\n'),
  );
  const commentBody = truncateBody(
    [fingerprintMarker(c.fingerprint), evidenceMarker(digest), '', `Seen again: ${counts} (${classification}; signals: ${signalText}).`, ''].join('\n'),
  );
  return { title, body, commentBody };
}

/**
 * Cut a body longer than {@link GITHUB_BODY_LIMIT} characters and end it with a
 * visible marker saying how much was omitted; the result is at most the limit.
 */
export function truncateBody(body: string, limit = GITHUB_BODY_LIMIT): string {
  if (body.length <= limit) return body;
  const marker = (n: number) => `\n\n---\n**[truncated by okstra: ${n} characters omitted]**\n`;
  // The marker's length depends on the number it prints: settle on the largest cut that fits.
  let keep = Math.max(0, limit - marker(body.length).length);
  while (keep + 1 + marker(body.length - keep - 1).length <= limit) keep++;
  return body.slice(0, keep) + marker(body.length - keep);
}

/** `text` on one line, at most `max` characters: cut at a blank, never inside a word or a placeholder (half a word is no word the last gate knows). */
function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  const cut = one.slice(0, max - 1);
  const blank = cut.lastIndexOf(' ');
  return (blank > 0 ? cut.slice(0, blank) : cut).replace(/[\s([{'"`:,;.-]+$/, '') + '…';
}

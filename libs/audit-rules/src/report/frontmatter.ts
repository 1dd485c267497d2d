/** The leading `---` … `---` (or `...`) block of a markdown file, BOM allowed. */
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * A cheap necessary condition for the approval marker in any YAML spelling
 * (quoted key, blanks or a line break before the value, a quoted or tagged
 * `true`): only a block that passes it is parsed.
 */
const MAY_APPROVE = /approved["']?\s*:\s*(?:!!\w+\s+)?["']?true/i;

/** What a report's frontmatter says, as far as the audit reads it. */
export type Frontmatter = { ok: true; data: Record<string, unknown> | null } | { ok: false; error: string };

/**
 * Parse a markdown file's YAML frontmatter with a YAML 1.2 parser (`yaml`),
 * so `approved: true`, `"approved": true` and `approved : true` read alike.
 * Only a block that could carry `approved: true` ({@link MAY_APPROVE}) is
 * parsed — the only value the audit reads — and the parser is loaded only then
 * (an audit reads thousands of reports, nearly all `approved: false`).
 * @returns `data` null when the file has no frontmatter, cannot carry the
 *   marker, or is not a mapping; `ok: false` with the parser's first line when it is not YAML.
 */
export async function readFrontmatter(markdown: string): Promise<Frontmatter> {
  const m = FRONTMATTER.exec(markdown);
  if (!m || !MAY_APPROVE.test(m[1]!)) return { ok: true, data: null };
  const { parse } = await import('yaml');
  try {
    const value = parse(m[1]!, { prettyErrors: false }) as unknown;
    return { ok: true, data: value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null };
  } catch (error) {
    return { ok: false, error: String((error as Error).message).split('\n')[0]! };
  }
}

/**
 * True when the frontmatter carries the seeds' approval marker: `approved`
 * is the YAML boolean true (`true`, `True`, `TRUE`), or the string `"true"`
 * (a quoted true is still read as approval by a human; the audit fails toward noticing it).
 */
export function isApproved(data: Record<string, unknown> | null): boolean {
  const v = data?.approved;
  return v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');
}

/** True when the report's frontmatter publishes the approval marker (see {@link isApproved}); false when it has none or does not parse. */
export async function publishesApproved(markdown: string): Promise<boolean> {
  const fm = await readFrontmatter(markdown);
  return fm.ok && isApproved(fm.data);
}

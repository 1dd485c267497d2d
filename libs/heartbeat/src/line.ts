/**
 * The heartbeat line shape (docs/contracts.md §7): at column 0, `- PROGRESS: `,
 * an RFC 3339 timestamp (`Z`/`z` or a `±HH:MM` offset, optional fraction), a
 * space, a phase id, a space and a verb phrase. The line alone decides — no
 * fence or table tracking — so a tail read and a whole-file audit agree.
 */
const LINE = /^- PROGRESS: (\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2}) (\S+) (.*\S.*)$/;

/** One heartbeat: when (absolute instant), which phase, what it was doing, and where. */
export interface Heartbeat {
  /** The instant the timestamp denotes (offsets applied). */
  at: Date;
  /** The phase id (`round-1`, `phase-2`). */
  phase: string;
  /** The verb phrase, trimmed (`checking src/queue.ts`). */
  verb: string;
  /** 1-based line number in the file, or 0 when unknown (tail reads). */
  line: number;
}

/**
 * Parse one line (without or with its trailing `\r`/`\n`) as a heartbeat.
 * @param lineNumber 1-based line number to record, 0 (default) when unknown.
 * @returns the heartbeat, or null when the line does not have the §7 shape
 *   (indented, quoted, mid-line `PROGRESS:`, no timestamp, an impossible date
 *   such as Feb 30 or 25:00, an empty phase or verb phrase).
 */
export function parseHeartbeatLine(line: string, lineNumber = 0): Heartbeat | null {
  const m = LINE.exec(line.replace(/[\r\n]+$/, ''));
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone, phase, verb] = m;
  const at = toInstant(+y, +mo, +d, +h, +mi, +s, frac, zone);
  if (!at) return null;
  return { at, phase, verb: verb.trim(), line: lineNumber };
}

/**
 * Every heartbeat of a whole sidecar text, in file order, with 1-based line
 * numbers. LF and CRLF line ends are both accepted; a leading BOM is ignored.
 */
export function parseHeartbeats(text: string): Heartbeat[] {
  const out: Heartbeat[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const hb = parseHeartbeatLine(lines[i], i + 1);
    if (hb) out.push(hb);
  }
  return out;
}

function toInstant(y: number, mo: number, d: number, h: number, mi: number, s: number, frac: string | undefined, zone: string): Date | null {
  // RFC 3339 allows second 60 (leap second); JS cannot represent it, so it is read as :59.999.
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return null;
  if (d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  let offsetMin = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const oh = +zone.slice(1, 3);
    const om = +zone.slice(4, 6);
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = s === 60 ? 999 : frac ? Math.floor(Number('0' + frac) * 1000) : 0;
  const utc = Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms) - offsetMin * 60_000;
  // Date.UTC maps years 0–99 to 1900–1999; okstra timestamps are never that old.
  return y < 100 ? null : new Date(utc);
}

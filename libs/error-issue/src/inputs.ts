import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { projectJsonPath, taskManifestPath, tasksDir } from '@okstra/paths';
import { InputError } from '@okstra/core';
import { ErrorRecord } from '@okstra/schemas/error-issue';
import { jsonProblem, listDir, runAudit } from '@okstra/audit-rules';
import { isRegularIfExists, parseJsonText } from '@okstra/state-file';
import { harvestIdentities, IdentitySet, remoteIdentities } from './identities.js';
import type { RawRecord } from './signals.js';

/** Keys of an errors-log record whose values are identities by their name alone. */
const IDENTITY_KEYS = /^(?:user(?:name)?|login|author|owner|host(?:name)?|machine|repo(?:sitory)?|project(?:name|id)?|email|cwd|home|workspace)$/i;

/** A line of an errors log that could not be used (reported on stderr, never in the plan). */
export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

/** What one project contributed. */
export interface ProjectInputs {
  records: RawRecord[];
  violations: number;
  skipped: SkippedLine[];
}

/** The most run-audit violations one project may bring into an error-issue plan (docs/conventions.md "Sizes"). */
export const MAX_PLAN_VIOLATIONS = 1_000;

/**
 * Read one project's inputs (docs/error-issue.md "Inputs"): its run-audit
 * violations and every `errors-*.jsonl` line of its tasks, as raw records;
 * and add its identities to `identities` (root path and name, project.json id
 * and name, package.json name, git remotes, task groups and ids, and what
 * the records reveal). Lines that are not JSON or lack a `message` are skipped.
 * @throws InputError when the project root is unusable (from run-audit).
 */
export async function readProjectInputs(projectRoot: string, projectIndex: number, identities: IdentitySet): Promise<ProjectInputs> {
  identities.add(projectRoot, basename(projectRoot));
  const project = await readJson(projectJsonPath(projectRoot));
  identities.add(str(project?.projectId), str(project?.name));
  identities.add(str((await readJson(join(projectRoot, 'package.json')))?.name));
  const gitConfig = await readRegularText(join(projectRoot, '.git', 'config'));
  for (const m of gitConfig.matchAll(/^\s*url\s*=\s*(.+)$/gm)) remoteIdentities(m[1]!, identities);

  const audit = await runAudit(projectRoot);
  // A plan is a few issues a person reads: a project past this many violations is refused whole
  // (docs/conventions.md "Sizes") — its identities would be scrubbed from every one of them.
  if (audit.violations.length > MAX_PLAN_VIOLATIONS) {
    throw new InputError(`run-audit finds ${audit.violations.length} violations, over the ${MAX_PLAN_VIOLATIONS} an error-issue plan reads`, {
      file: projectRoot,
      hint: 'run okstra run-audit to see them; repair or remove the broken runs first',
    });
  }
  const records: RawRecord[] = audit.violations.map((v) => ({
    origin: 'run-audit',
    projectIndex,
    projectRoot,
    runKey: `${projectIndex}|${v.taskKey}|${v.runDir}|${v.seq ?? '-'}`,
    source: 'run-audit',
    kind: v.invariant,
    message: v.message,
    detail: '',
    exitCode: null,
    taskType: v.taskType,
  }));
  const skipped: SkippedLine[] = [];
  const tasks = tasksDir(projectRoot);
  for (const group of await listDir(tasks)) {
    identities.add(group);
    for (const id of await listDir(join(tasks, group))) {
      const root = join(tasks, group, id);
      identities.add(id);
      const taskKey = str((await readJson(taskManifestPath(root)))?.taskKey) ?? `${group}:${id}`;
      for (const part of taskKey.split(':')) identities.add(part);
      for (const name of (await listDir(root)).filter((n) => /^errors-.+\.jsonl$/.test(n))) {
        const file = join(root, name);
        // A leading UTF-8 BOM is not part of line 1's JSON.
        const text = (await readRegularText(file)).replace(/^\uFEFF/, '');
        text.split(/\r?\n/).forEach((line, i) => {
          if (line.trim() === '') return;
          let value: unknown;
          try {
            value = parseJsonText(line);
          } catch (error) {
            // Malformed stays "not valid JSON"; a duplicate key, 1e999 or a too-deep line says which.
            const why = jsonProblem(error);
            skipped.push({ file, line: i + 1, reason: why.startsWith('is not valid JSON') ? 'not valid JSON' : why });
            return;
          }
          const parsed = ErrorRecord.safeParse(value);
          if (!parsed.success) {
            skipped.push({
              file,
              line: i + 1,
              reason: `not an error record (${parsed.error.issues[0]?.path.join('.') || '$'}: ${parsed.error.issues[0]?.message})`,
            });
            return;
          }
          const rec = parsed.data;
          harvestRecord(rec as Record<string, unknown>, identities);
          records.push({
            origin: 'errors-log',
            projectIndex,
            projectRoot,
            runKey: `${projectIndex}|${taskKey}|${rec.taskType ?? '-'}|${rec.seq ?? name}`,
            source: rec.source ?? 'okstra',
            kind: rec.kind ?? '',
            message: rec.message,
            detail: [rec.detail, rec.stderr, rec.stack].filter(Boolean).join('\n'),
            exitCode: rec.exitCode ?? null,
            taskType: rec.taskType ?? null,
          });
        });
      }
    }
  }
  return { records, violations: audit.violations.length, skipped };
}

/** Add what a record reveals: identity-named keys' values, and the shapes {@link harvestIdentities} knows, in every string. */
function harvestRecord(value: unknown, identities: IdentitySet, key = ''): void {
  if (typeof value === 'string') {
    if (IDENTITY_KEYS.test(key)) identities.add(value);
    harvestIdentities(value, identities);
  } else if (Array.isArray(value)) {
    for (const v of value) harvestRecord(v, identities, key);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) harvestRecord(v, identities, k);
  }
}

async function readJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    const v = parseJsonText(await readRegularText(path));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The UTF-8 text of a regular file (symlinks followed); '' when missing, unreadable or not a regular file (a FIFO would never end). */
async function readRegularText(path: string): Promise<string> {
  if (!isRegularIfExists(path)) return '';
  return readFile(path, 'utf8').catch(() => '');
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

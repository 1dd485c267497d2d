import { InputError, isStdio, readStdinText, type Io } from '@okstra/cli-kit';
import { parseJsonText, readTextFile, validateValue } from '@okstra/state-file';
import { ImplementationPlanningReportData } from '@okstra/schemas/implementation-planning';
import type { ParseSchema } from '@okstra/state-file';

/** A report data.json as written (`text`, for rewriting with every other byte kept; `raw`, its parse) and as validated (`data`). */
export interface ReportDataInput<T = ImplementationPlanningReportData> {
  path: string;
  text: string;
  raw: Record<string, unknown>;
  data: T;
}

/**
 * Read and validate a report-writer data.json (docs/plan-items.md "Data shapes"),
 * keeping the raw parse beside the schema output. `schema` defaults to the full
 * `ImplementationPlanningReportData`; incremental-scope passes `ScopeReportData`
 * (only what its decision reads).
 * @throws InputError naming `label` and the JSON path of the first schema issue
 *   (e.g. a RED: step whose outcome is PASS), or a missing / empty / malformed file.
 */
export async function readReportData<T = ImplementationPlanningReportData>(
  path: string,
  label: string,
  schema: ParseSchema<T> = ImplementationPlanningReportData as unknown as ParseSchema<T>,
  io?: Pick<Io, 'stdin'>,
): Promise<ReportDataInput<T>> {
  // `-` is stdin (a document input; cli-kit documentArg).
  const text = isStdio(path) && io ? await readStdinText(io) : await readTextFile(path, { label });
  // The JSON rules (empty, malformed, truncated, too deep) and their messages are state-file's.
  const raw: unknown = parseJsonText(text, { label });
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new InputError('expected a JSON object', { file: label });
  const data = validateValue(raw, { schema, label });
  return { path, text, raw: raw as Record<string, unknown>, data };
}

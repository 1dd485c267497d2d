import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { exampleOf } from './texts.js';

/**
 * The scripted provider CLI every `cli-wrapper` worker runs (installed as a user provider with the provider's
 * own id, so it replaces the bundled one: argv `{model} {resultPath}`, the prompt on stdin). It does what
 * prompts/workers/audit-sidecar.md tells a worker — a `- PROGRESS:` heartbeat in the sidecar beside its result
 * first — then answers what the prompt asks:
 * - a `Batch: <ids>` line (reverify, gap vote, plan verify): one block per id in the worker texts' shape,
 *   `SURVIVES` for a finding or gap, `AGREE` for a `P-*` item, each with a Basis;
 * - `CRITIC-RESULTS: <path>` (the coverage critic): its candidates document there and a summary result;
 * - `REPORT: <md>` and `DATA: <data.json>` (the report writer): the final report and its data.json;
 * - anything else (an initial analysis): findings.
 * `JOURNEY_FAIL=<provider>:<text>` fails (exit 1, no answer) the first call of that provider whose result path
 * holds `<text>`; `JOURNEY_HEDGE=<provider>:<text>` hedges its first verdict once (`SURVIVES, probably`, which
 * collect refuses), so a journey goes through a retry and a repair.
 */
export const PROVIDER_STUB = `#!/bin/sh
prompt=$(cat)
result="$2"
me=$(basename "$(dirname "$0")")
audit="\${result%.md}.audit.md"
mkdir -p "$(dirname "$result")"
printf -- '- PROGRESS: %s work reading the prompt\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$audit"
once() { case "$1" in "$me:"*) pat="\${1#*:}"; flag="$HOME/$2-$me-$(printf '%s' "$pat" | tr -c 'A-Za-z0-9-' '_')"; case "$result" in *"$pat"*) [ -e "$flag" ] && return 1; : > "$flag"; return 0;; esac;; esac; return 1; }
if once "$JOURNEY_FAIL" failed; then echo "stub $me: authentication required" >&2; exit 1; fi
hedge=''
if once "$JOURNEY_HEDGE" hedged; then hedge=', probably'; fi
ids=$(printf '%s\\n' "$prompt" | sed -n 's/^Batch: //p' | head -1 | tr ',' ' ')
critic=$(printf '%s\\n' "$prompt" | sed -n 's/^CRITIC-RESULTS: //p' | head -1)
report=$(printf '%s\\n' "$prompt" | sed -n 's/^REPORT: //p' | head -1)
data=$(printf '%s\\n' "$prompt" | sed -n 's/^DATA: //p' | head -1)
tmp="$result.tmp.$$"
if [ -n "$ids" ]; then
  for id in $ids; do
    case "$id" in P-*) word=AGREE;; *) word=SURVIVES;; esac
    printf '### %s\\n**Verdict**: %s%s\\n**Basis**: the stub read what %s cites and it holds as written.\\n\\n' "$id" "$word" "$hedge" "$id"
    hedge=''
  done > "$tmp"
elif [ -n "$critic" ]; then
  mkdir -p "$(dirname "$critic")"
  printf '%s\\n' "{\\"schemaVersion\\": \\"1.0\\", \\"kind\\": \\"critic-results\\", \\"criticWorkerId\\": \\"$me\\", \\"modelExecutionValue\\": \\"$1\\", \\"candidates\\": [{\\"id\\": \\"C-001\\", \\"title\\": \\"Refund amount is not checked against the capture\\", \\"claim\\": \\"A refund larger than the capture reaches the gateway.\\", \\"evidence\\": [\\"src/refunds/create.ts:22\\"], \\"rationale\\": \\"No analyser read refund creation.\\"}]}" > "$critic.tmp" && mv "$critic.tmp" "$critic"
  printf '# Coverage gaps\\n\\n- C-001 refund amount is not checked against the captured amount (candidates in %s)\\n' "$critic" > "$tmp"
elif [ -n "$report" ]; then
  mkdir -p "$(dirname "$report")"
  printf '%s' "$REPORT_BODY" > "$report.tmp" && mv "$report.tmp" "$report"
  printf '%s' "$REPORT_DATA" > "$data.tmp" && mv "$data.tmp" "$data"
  printf '# Report writer\\n\\nWrote %s and %s from the converged findings.\\n' "$report" "$data" > "$tmp"
else
  printf '# Findings\\n\\n### F-001 Refund timeout compares seconds with milliseconds\\nisExpired() compares a deadline in seconds with Date.now() in milliseconds.\\n' > "$tmp"
fi
printf -- '- PROGRESS: %s work answer written\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$audit"
mv "$tmp" "$result"
`;

/** What a native worker writes: its answer text (the worker texts' shape), into its result file. */
export interface NativeWork {
  resultPath: string;
  sidecarPath: string;
  answer: string;
}

/**
 * A native-session worker, as the host's own sub-agent does what prompts/workers/audit-sidecar.md tells it:
 * the text's own heartbeat command (`example=heartbeat-command`, run by sh with the sidecar filled in) first and
 * last, the answer between. Its row is the lead's to record.
 */
export function runNativeWorker(cwd: string, work: NativeWork): void {
  const beat = exampleOf('prompts/workers/audit-sidecar.md', 'heartbeat-command').replaceAll('<audit-sidecar>', shellQuote(work.sidecarPath));
  mkdirSync(dirname(work.sidecarPath), { recursive: true });
  const sh = spawnSync('sh', ['-c', beat], { cwd, encoding: 'utf8' });
  if (sh.status !== 0) throw new Error(`the heartbeat command of audit-sidecar.md failed: ${sh.stderr}`);
  mkdirSync(dirname(work.resultPath), { recursive: true });
  writeFileSync(work.resultPath, work.answer);
  spawnSync('sh', ['-c', beat], { cwd });
}

/**
 * An answer in a worker text's example shape (`example=<kind>` of `file`): its first block's Verdict and Basis
 * lines, repeated for each id with `verdict`.
 */
export function answerInShape(file: string, kind: string, ids: readonly string[], verdict: string): string {
  const block = exampleOf(file, kind).split(/\n(?=### )/)[0]!;
  const basis = /^\*\*Basis\*\*:.*$/m.exec(block)?.[0] ?? '**Basis**: checked.';
  const fixability = /^\*\*Fixability\*\*:/m.test(block) && verdict.startsWith('DISAGREE') ? '**Fixability**: in-place\n' : '';
  return ids.map((id) => `### ${id}\n**Verdict**: ${verdict}\n${fixability}${basis.replace(/`[^`]*:\d+`/g, 'the cited line')}\n`).join('\n');
}

/** The `Batch:` ids of a rendered prompt (the reverify and gap-vote prompts name them on one line). */
export function batchIds(promptPath: string): string[] {
  const m = /^Batch: (.+)$/m.exec(readFileSync(promptPath, 'utf8'));
  if (!m) throw new Error(`${promptPath} has no Batch: line`);
  return m[1]!.split(',').map((s) => s.trim());
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

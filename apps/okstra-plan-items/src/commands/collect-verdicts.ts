import type { CliContext } from '@okstra/cli-kit';
import { InputError, isStdio, parseKeyValue, pathArg, writeJson } from '@okstra/cli-kit';
import { assertOutputNotInput, readArtifact, readTextFile, renderArtifact, writeArtifact } from '@okstra/state-file';
import { WorkerId } from '@okstra/schemas';
import { planItemsArtifact } from '@okstra/schemas/plan-items';
import { planVerdictsArtifact } from '@okstra/schemas/plan-verdicts';
import { collectVerdicts, type WorkerResponse } from '@okstra/plan-items';
import { MAX_RESPONSE_BYTES } from '@okstra/verdict-blocks';

/** Options of `plan-items collect-verdicts`. */
export interface CollectVerdictsOptions {
  result: string[];
  items: string;
  output: string;
}

/**
 * `okstra-plan-items collect-verdicts --result <worker-id>=<path>… --items <items.json>
 * --output <verdicts.json>` (0.161.0 row): read every response, then write the
 * envelope atomically and print `{contributors, items, verdicts}`. Any hard error
 * (docs/plan-items.md "Hard errors") → exit 2, one line naming worker, item and
 * line, nothing written. No `--result` at all gives an envelope with no contributors.
 * `--output -` prints the envelope itself on stdout instead.
 */
export async function runCollectVerdicts(opts: CollectVerdictsOptions, ctx: CliContext): Promise<number> {
  const toStdout = isStdio(opts.output);
  if (!toStdout)
    assertOutputNotInput({ path: pathArg(ctx.io, opts.output), flag: '--output' }, [
      { path: pathArg(ctx.io, opts.items), flag: '--items' },
      ...opts.result.map((raw) => ({ path: pathArg(ctx.io, raw.slice(raw.indexOf('=') + 1)), flag: '--result' })),
    ]);
  const queueFile = await readArtifact(pathArg(ctx.io, opts.items), planItemsArtifact, { label: opts.items });
  const responses: WorkerResponse[] = [];
  for (const raw of opts.result) {
    const { key, value } = parseKeyValue('--result', raw);
    if (!WorkerId.safeParse(key).success) throw new InputError(`invalid worker id '${key}'`, { field: '--result' });
    const markdown = await readTextFile(pathArg(ctx.io, value), { label: value, maxBytes: MAX_RESPONSE_BYTES });
    responses.push({ workerId: key, file: value, markdown });
  }
  const envelope = collectVerdicts(
    queueFile.items.map((item) => item.id),
    responses,
  );
  if (toStdout) {
    ctx.io.stdout.write(renderArtifact(planVerdictsArtifact, envelope));
    return 0;
  }
  await writeArtifact(pathArg(ctx.io, opts.output), planVerdictsArtifact, envelope, { label: opts.output });
  const verdicts = envelope.items.reduce((n, item) => n + item.verdicts.length, 0);
  writeJson(ctx.io, { contributors: envelope.contributors, items: envelope.items.length, verdicts, output: pathArg(ctx.io, opts.output) });
  return 0;
}

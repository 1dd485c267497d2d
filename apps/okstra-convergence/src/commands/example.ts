import { writeJson, type CliContext } from '@okstra/cli-kit';
import { exampleDocument, type ExampleKind } from '@okstra/convergence';

/** `example --kind <kind>`: print one deterministic valid document of that kind on stdout. */
export async function runExample(opts: { kind: ExampleKind }, ctx: CliContext): Promise<number> {
  writeJson(ctx.io, exampleDocument(opts.kind));
  return 0;
}

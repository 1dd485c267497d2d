import { memoryIo } from '@okstra/cli-kit';
import { main } from 'okstra';

/** What one okstra command run produced. */
export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `okstra <argv…>` through the umbrella's real `main` in-process (the same
 * code path as the bin, without a second Node process per call).
 */
export async function okstra(...argv: string[]): Promise<ToolRun> {
  const io = memoryIo();
  const code = await main(argv, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

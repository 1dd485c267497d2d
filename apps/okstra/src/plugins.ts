import { childProcess, type Io } from '@okstra/cli-kit';

/**
 * Run an executable with `args`, passing stdin, stdout, stderr and the exit
 * code through unchanged (argv array, never a shell). A child killed by a
 * signal exits 128 + signal number, as shells report it.
 */
export function runExecutable(file: string, args: readonly string[], io: Io): Promise<number> {
  const inherit = io.stdout === process.stdout && io.stderr === process.stderr;
  return new Promise((resolve) => {
    const child = childProcess().spawn(file, [...args], {
      cwd: io.cwd,
      env: io.env,
      stdio: inherit ? 'inherit' : ['pipe', 'pipe', 'pipe'],
    });
    if (!inherit) {
      child.stdout?.on('data', (b: Buffer) => io.stdout.write(b.toString()));
      child.stderr?.on('data', (b: Buffer) => io.stderr.write(b.toString()));
      if (io.stdin && typeof io.stdin.pipe === 'function') io.stdin.pipe(child.stdin!);
      else child.stdin?.end();
    }
    child.on('error', (error) => {
      io.stderr.write(`okstra: cannot run ${file}: ${error.message}\n`);
      resolve(2);
    });
    child.on('close', (code, signal) => {
      resolve(code ?? 128 + (signal ? signalNumber(signal) : 0));
    });
  });
}

/**
 * The number of `signal` on this platform (SIGABRT → 6, SIGSEGV → 11, …), from Node's own table.
 * node:os is loaded here, not at import: only a plug-in killed by a signal needs it.
 */
function signalNumber(signal: NodeJS.Signals): number {
  return process.getBuiltinModule('node:os').constants.signals[signal] ?? 0;
}

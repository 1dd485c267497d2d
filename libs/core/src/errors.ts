import { ExitCode, type ExitCodeValue } from './exit-codes.js';

/** The mark every {@link OkstraError} carries, shared by every copy of this package (a registered symbol). */
const OKSTRA_ERROR = Symbol.for('@okstra/core.OkstraError');

/** Options of {@link OkstraError}. */
export interface OkstraErrorOptions {
  /** Exit code the top-level handler turns this error into; default 2. */
  exitCode?: ExitCodeValue;
  /** The file the problem is in (printed before the message). */
  file?: string;
  /** JSON path (`workers[2].status`) or `line N` inside `file`. */
  field?: string;
  /** A second sentence telling the user what to do. */
  hint?: string;
  cause?: unknown;
}

/**
 * A typed, user-facing error: a stable `code` (e.g. `OKSTRA_INPUT_INVALID`),
 * a one-line message, and where it happened. Deep code throws these; only
 * `runCli` (`@okstra/cli-kit`) prints them and turns them into an exit code
 * (docs/conventions.md "Rules every command keeps").
 */
export class OkstraError extends Error {
  /**
   * `error instanceof OkstraError` holds for an OkstraError of any copy of this
   * package: a bundled bin can hold two (okstra-run-audit's standalone
   * `dist/bin.js` beside its chunks), and an error from one copy's code reaching
   * the other's `runCli` must still be its one line and exit code, not "internal
   * error". Subclasses keep the plain prototype test.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return this === OkstraError && typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[OKSTRA_ERROR] === true;
  }
  readonly [OKSTRA_ERROR] = true;
  readonly code: string;
  readonly exitCode: ExitCodeValue;
  readonly file?: string;
  readonly field?: string;
  readonly hint?: string;

  constructor(code: string, message: string, options: OkstraErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OkstraError';
    this.code = code;
    this.exitCode = options.exitCode ?? ExitCode.INVALID;
    this.file = options.file;
    this.field = options.field;
    this.hint = options.hint;
  }

  /** The single line printed on stderr: `<file>: <field>: <message> (<hint>)`. */
  toLine(): string {
    const where = [this.file, this.field].filter(Boolean).join(': ');
    const text = where ? `${where}: ${this.message}` : this.message;
    return oneLine(this.hint ? `${text} (${this.hint})` : text);
  }
}

/** Usage error: bad flags or arguments. Exit 2. */
export class UsageError extends OkstraError {
  constructor(message: string, options: Omit<OkstraErrorOptions, 'exitCode'> = {}) {
    super('OKSTRA_USAGE', message, { ...options, exitCode: ExitCode.INVALID });
    this.name = 'UsageError';
  }
}

/**
 * Invalid input file or value: names the file and the field or line. Exit 2.
 * Thrown for missing files, directories, empty or truncated JSON, schema
 * violations and unknown `schemaVersion`s.
 */
export class InputError extends OkstraError {
  constructor(message: string, options: Omit<OkstraErrorOptions, 'exitCode'> = {}) {
    super('OKSTRA_INPUT_INVALID', message, { ...options, exitCode: ExitCode.INVALID });
    this.name = 'InputError';
  }
}

/** Collapse any whitespace run containing a newline so errors stay one line; other control characters are shown escaped ({@link printable}). */
export function oneLine(text: string): string {
  return printable(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}

/**
 * `text` with every control character shown as an escape (`\n`, `\r`, `\t`,
 * `\x1b`, `\u2028`, …), for a field of a human-readable line. A reason or a
 * name taken from a file then cannot start a forged line of the report or
 * drive the terminal (ANSI escapes). JSON output needs none of this.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

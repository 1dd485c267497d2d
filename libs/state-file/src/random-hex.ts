/**
 * `bytes` random bytes as lower-case hex (2 × `bytes` characters), for temp-file
 * and lock-owner names. node:crypto is loaded on the first call
 * (`process.getBuiltinModule`, Node ≥ 20.16), not when the module loads: loading
 * it cost every read-only command (run-audit on the sample) ~3–5 ms of start-up.
 */
export function randomHex(bytes: number): string {
  return process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex');
}

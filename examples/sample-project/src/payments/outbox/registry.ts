export const outboxHandlers = new Map<string, (payload: unknown) => Promise<void>>();

/** Register the handler of an outbox message kind (one per kind). */
export function registerOutboxHandler(kind: string, handler: (payload: unknown) => Promise<void>): void {
  if (outboxHandlers.has(kind)) throw new Error(`outbox handler for '${kind}' registered twice`);
  outboxHandlers.set(kind, handler);
}

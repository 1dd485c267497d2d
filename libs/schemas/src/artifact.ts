import type * as z from './zod.js';

/** Base of every generated JSON Schema `$id`. */
export const SCHEMA_ID_BASE = 'https://okstra.dev/schemas/';

/**
 * One artifact's schema as the build publishes it: a zod schema (the source
 * of truth, with its inferred TypeScript type) plus the name of the JSON
 * Schema file emitted for it (`dist/json-schema/<name>.schema.json`, `$id` =
 * {@link SCHEMA_ID_BASE} + name + `.schema.json`).
 */
export interface Artifact<S extends z.ZodMiniType = z.ZodMiniType> {
  kind: 'okstra-artifact';
  name: string;
  /** `schemaVersion` values this schema accepts. */
  versions: readonly string[];
  description: string;
  schema: S;
}

/** Declare an artifact; every module's exported artifacts are found by the JSON Schema emitter. */
export function defineArtifact<S extends z.ZodMiniType>(name: string, versions: readonly string[], description: string, schema: S): Artifact<S> {
  return { kind: 'okstra-artifact', name, versions, description, schema };
}

/** The `$id` of an artifact's JSON Schema. */
export function schemaId(name: string): string {
  return `${SCHEMA_ID_BASE}${name}.schema.json`;
}

import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { NonEmptyString, ProviderId } from './common.js';
import { PROVIDER_CAPABILITIES } from './vocabulary.js';
import { CaptureKind } from './worker-usage.js';

/**
 * Worker capabilities a provider declares (0.164.0 README provider table):
 * `analysis` (analyser, reverify), `critic`, `implementation` (executor),
 * `verification` (verifier), `report-writer` — the vocabulary of
 * vocabulary.ts (role labels: roles.ts). A job whose role needs a capability its provider lacks is
 * refused; a `readOnly` provider never takes implementation, verification
 * or report-writer.
 */
export const ProviderCapability = z.enum(PROVIDER_CAPABILITIES);
export type ProviderCapability = z.infer<typeof ProviderCapability>;

/**
 * One argv word of a provider launch: literal text, or a placeholder the
 * wrapper fills — `{model}` (the job's model execution value), `{promptPath}`,
 * `{resultPath}`, `{projectRoot}` (absolute paths). Substitution is per word;
 * no shell ever sees the result.
 */
export const ArgvWord = z.string().check(
  z.minLength(1),
  z.refine((w) => !/[\0\n]/.test(w), 'argv words cannot contain NUL or newlines'),
);

/**
 * Environment variables a launch of this provider must set (name → value,
 * e.g. `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`): the wrapper adds them to
 * the CLI's environment (over the pane's), nothing else. Names are POSIX
 * environment names; values are literal (no placeholders, no shell).
 */
export const ProviderEnv = z.record(
  z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name like "NO_COLOR"')),
  z.string().check(z.refine((v) => !v.includes('\0'), 'environment values cannot contain NUL')),
);
export type ProviderEnv = z.infer<typeof ProviderEnv>;

/**
 * Launches that differ by role (docs/providers.md "Bundled providers"):
 * capability → the argv words ({@link ArgvWord}) a job whose role needs that
 * capability runs instead of `argv` — e.g. a CLI sandbox that lets an
 * implementer run the project's commands while every other role may run
 * none. A capability without an entry uses `argv`.
 */
export const ArgvByCapability = z.partialRecord(ProviderCapability, z.array(ArgvWord));
export type ArgvByCapability = z.infer<typeof ArgvByCapability>;

/**
 * `provider.json`: a declarative provider manifest (docs/contracts.md §5 provider
 * registry; 0.164.0 host/provider registry text). Bundled manifests ship with
 * `@okstra/providers`; user installs live only in
 * `~/.okstra/adapters/providers/<id>/provider.json`. A relative `executable`
 * containing `/` resolves against that manifest's directory; a bare name is
 * looked up on PATH. `promptDelivery: stdin` feeds the prompt file on stdin
 * (then closes it); `argument` passes only its path through `{promptPath}`.
 * `capture` (default `none`) names the output format the wrapper reads the
 * provider's final answer and usage from (docs/providers.md "Capture").
 * `env` (optional, {@link ProviderEnv}) is what every launch sets;
 * `argvByCapability` (optional, {@link ArgvByCapability}) replaces `argv` for
 * the roles it names. `answerSchemaArgv` (optional) declares that the CLI
 * binds its final answer to a JSON Schema: the words a schema-bound launch
 * (reverify, gap-vote, plan-verify; docs/providers.md "Structured output")
 * appends to its argv, with `{answerSchema}` (the schema as one line of JSON)
 * or `{answerSchemaPath}` (a file holding it); a provider without it answers
 * those rounds in Markdown.
 */
export const ProviderManifest = z.looseObject({
  schemaVersion: z.literal('1.0'),
  id: ProviderId,
  displayName: z.optional(NonEmptyString),
  executable: NonEmptyString,
  argv: z.array(ArgvWord),
  argvByCapability: z.optional(ArgvByCapability),
  promptDelivery: z._default(z.enum(['stdin', 'argument']), 'stdin'),
  capabilities: z.array(ProviderCapability).check(z.minLength(1)),
  readOnly: z._default(z.boolean(), false),
  capture: z._default(CaptureKind, 'none'),
  env: z.optional(ProviderEnv),
  answerSchemaArgv: z.optional(z.array(ArgvWord).check(z.minLength(1))),
});
export type ProviderManifest = z.infer<typeof ProviderManifest>;

export const providerManifestArtifact = defineArtifact(
  'provider-manifest',
  ['1.0'],
  'okstra provider manifest (bundled or ~/.okstra/adapters/providers/<id>/provider.json)',
  ProviderManifest,
);

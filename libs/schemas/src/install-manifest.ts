import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { NonEmptyString, Timestamp } from './common.js';

/** The hosts `okstra install` puts skills in (docs/install.md "Where each host loads skills"). */
export const INSTALL_HOSTS = ['claude-code', 'codex', 'antigravity'] as const;
export const InstallHost = z.enum(INSTALL_HOSTS);
export type InstallHost = z.infer<typeof InstallHost>;

/** One file `okstra install` wrote: where, for what, and the sha256 of the bytes it wrote. */
export const InstalledFile = z.object({
  /** Absolute path of the installed file. */
  path: NonEmptyString,
  /** `texts` for the lead/worker texts under the okstra home; else the host whose skill folder holds it. */
  target: z.union([z.literal('texts'), InstallHost]),
  scope: z.enum(['user', 'project']),
  /** The folder the install wrote under (the okstra home for texts, the host's skill folder): nothing is written outside it. */
  root: NonEmptyString,
  /** The shipped file it is a copy of, relative to the package (`skills/okstra-run/SKILL.md`, `prompts/lead/okstra-tools.md`). */
  source: NonEmptyString,
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
});
export type InstalledFile = z.infer<typeof InstalledFile>;

/**
 * `~/.okstra/install-manifest.json` (docs/install.md): what `okstra install` wrote, so a later install
 * updates exactly its own files and `okstra install --check` can tell drift. Versioned; unknown keys are kept.
 */
export const InstallManifest = z.looseObject({
  schemaVersion: z.literal('1.0'),
  kind: z.literal('okstra-install-manifest'),
  /** The okstra package version whose texts were installed last. */
  okstraVersion: NonEmptyString,
  installedAt: Timestamp,
  files: z.array(InstalledFile),
});
export type InstallManifest = z.infer<typeof InstallManifest>;

export const installManifestArtifact = defineArtifact(
  'install-manifest',
  ['1.0'],
  'okstra install manifest (~/.okstra/install-manifest.json)',
  InstallManifest,
);

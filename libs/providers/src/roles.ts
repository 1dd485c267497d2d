import { InputError } from '@okstra/core';
import type { ProviderCapability, ProviderManifest } from '@okstra/schemas/provider-manifest';

/**
 * The capability a job role needs (docs/providers.md): a role naming the
 * report writer needs `report-writer`; executor / implementation / implementer
 * roles need `implementation`; critic roles `critic`; everything else
 * (`analyser`, `worker`, `worker-reverify-r2`, …) `analysis`.
 */
export function capabilityOfRole(role: string): ProviderCapability {
  const r = role.toLowerCase();
  if (/report-?writer/.test(r)) return 'report-writer';
  if (/executor|implement/.test(r)) return 'implementation';
  if (/critic/.test(r)) return 'critic';
  return 'analysis';
}

/**
 * Refuse a job whose role its provider cannot take (0.164.0 README table:
 * e.g. grok as report writer).
 * @throws InputError (exit 2) naming `field` (e.g. `jobs[1].role`) and the provider's capabilities.
 */
export function assertProviderRole(manifest: ProviderManifest, role: string, where: { file?: string; field?: string } = {}): ProviderCapability {
  const needed = capabilityOfRole(role);
  if (!manifest.capabilities.includes(needed)) {
    throw new InputError(
      `provider '${manifest.id}' cannot take role '${role}' (needs ${needed}; ${manifest.id} offers ${manifest.capabilities.join(', ')})`,
      where,
    );
  }
  return needed;
}

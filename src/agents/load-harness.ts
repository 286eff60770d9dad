/**
 * Loads a harness adapter on first execute, through its registry record. Adapters import their SDK (and its
 * ~400 MB binary package) lazily, so importing `@stratoscli/stratos` loads neither; a missing SDK is a clear error
 * with the install command (./harness-kit/import-harness-sdk.ts).
 */
import type {AgentHarness} from './harness.ts';
import {importHarnessSdk} from './harness-kit/import-harness-sdk.ts';
import {findHarness, type HarnessId, harnessRecords} from './harnesses/registry.ts';

/** The SDK package of each harness, from the harness registry. */
export const harnessPackages = Object.fromEntries(
  harnessRecords.map((record) => [record.id, record.sdkPackage]),
) as Readonly<Record<HarnessId, string>>;

export function loadHarness(id: HarnessId): Promise<AgentHarness> {
  return findHarness(id).load();
}

/**
 * Imports the SDK a harness's adapter imports when its session starts (the same module, so that import is then
 * immediate): agent start-up times it as its own phase.
 * @throws StratosError STRATOS_AGENT_HARNESS_MISSING
 */
export async function preloadHarnessSdk(id: HarnessId): Promise<void> {
  await importHarnessSdk(id, findHarness(id), () => import(harnessPackages[id]));
}

import {type CleanResult, cleanWorkflow} from '../builder/index.ts';
import {discover, findWorkflow, type HostOptions, resolveHost} from './host.ts';

/** Deletes generated artifacts of one workflow or of all; authored files, dependencies and credentials stay. */
export async function cleanWorkflows(
  target: string | undefined,
  options: HostOptions = {},
): Promise<CleanResult[]> {
  const host = resolveHost(options);
  const handles =
    target === undefined ? (await discover(host)).workflows : [await findWorkflow(host, target)];
  const results: CleanResult[] = [];
  for (const handle of handles) results.push(await cleanWorkflow(handle));
  return results;
}

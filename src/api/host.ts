/** Where a host call runs: the invocation directory, the environment and the Stratos home derived from it. */
import {
  type DiscoveryResult,
  discoverWorkflows,
  resolveWorkflow,
  type WorkflowHandle,
} from '../discovery/index.ts';
import {resolveStratosHome} from '../internal/stratos-home.ts';

export interface HostOptions {
  /** The invocation directory; default `process.cwd()`. */
  cwd?: string;
  /** Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface Host {
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
}

export function resolveHost(options: HostOptions = {}): Host {
  const env = options.env ?? process.env;
  return {cwd: options.cwd ?? process.cwd(), env, home: resolveStratosHome(env)};
}

export async function discover(host: Host): Promise<DiscoveryResult> {
  return discoverWorkflows({cwd: host.cwd, home: host.home});
}

export async function findWorkflow(host: Host, target: string): Promise<WorkflowHandle> {
  return resolveWorkflow(target, await discover(host), host.cwd);
}

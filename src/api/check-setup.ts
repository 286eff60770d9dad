/**
 * `stratos doctor` as a function: one list of checks over what `provider status`, `skill status` and `list`
 * already compute (Node, the harnesses and their authentication, Ollama, the skill links, the discovery roots and
 * every workflow's manifest findings), each with its fix. Reads only: it installs, builds and connects nothing
 * beyond what those commands read (catalogs with a configured key, the Ollama endpoint).
 */
import {existsSync} from 'node:fs';
import {type Diagnostic, formatLocation} from '../errors/index.ts';
import {checkWorkflowConfiguration} from './check-configuration.ts';
import {discover, type HostOptions, resolveHost} from './host.ts';
import {readProviderStatus} from './provider-status.ts';
import {getBundledSkillStatus} from './skill.ts';

export interface SetupCheck {
  area: 'node' | 'harness' | 'ollama' | 'skill' | 'discovery' | 'workflow';
  /** What was checked: `claude-code`, a workflow name, a discovery root... */
  subject: string;
  /** `problem`: needs fixing (exit 1); `warning`: worth knowing, fine for some setups; `ok`. */
  status: 'ok' | 'warning' | 'problem';
  message: string;
  /** What to do, for a warning or a problem. */
  fix?: string;
}

export interface CheckSetupResult {
  /** True when no check is a problem (warnings allowed). */
  ok: boolean;
  summary: {ok: number; warnings: number; problems: number};
  checks: SetupCheck[];
}

/** The lowest Node.js major version Stratos runs on (bin/stratos.js refuses older ones). */
const minimumNodeMajor = 24;

/**
 * Checks the setup that workflows run in. Never throws for what it finds: every finding is a check.
 *
 * @example const {ok, checks} = await checkSetup({cwd: process.cwd()});
 */
export async function checkSetup(options: HostOptions = {}): Promise<CheckSetupResult> {
  const host = resolveHost(options);
  const [providers, skill, workflows] = await Promise.all([
    readProviderStatus({cwd: host.cwd, env: host.env}),
    getBundledSkillStatus({env: host.env}),
    checkWorkflows(host),
  ]);
  const checks: SetupCheck[] = [checkNode(process.versions.node)];
  for (const harness of providers.harnesses) {
    const used = workflows.harnesses.get(harness.harness);
    const needed = used === undefined ? '' : ` Workflow '${used}' uses it.`;
    if (!harness.installed) {
      checks.push({
        area: 'harness',
        subject: harness.harness,
        status: used === undefined ? 'warning' : 'problem',
        message: `The ${harness.harness} harness is not installed (only agents that use it need it).${needed}`,
        fix: `Run '${harness.install}' next to Stratos.`,
      });
    } else if (!harness.authentication.configured) {
      checks.push({
        area: 'harness',
        subject: harness.harness,
        status: used === undefined ? 'warning' : 'problem',
        message: `The ${harness.harness} harness is installed, but its authentication is not configured.${needed}`,
        fix:
          harness.authentication.guidance ??
          `Run 'stratos provider status' for the setup of ${harness.harness}.`,
      });
    } else {
      checks.push({
        area: 'harness',
        subject: harness.harness,
        status: 'ok',
        message: `The ${harness.harness} harness is installed and its authentication is configured.`,
      });
    }
  }
  const ollama = providers.ollama;
  const decider = workflows.ollamaUser;
  if (ollama.reachable) {
    checks.push({
      area: 'ollama',
      subject: ollama.endpoint ?? 'ollama',
      status: 'ok',
      message: `Ollama ${ollama.version} answers at ${ollama.endpoint} with ${ollama.models.length} ${ollama.models.length === 1 ? 'model' : 'models'}.`,
    });
  } else {
    const invalid = ollama.error?.code === 'STRATOS_OLLAMA_ENDPOINT_INVALID';
    checks.push({
      area: 'ollama',
      subject: ollama.endpoint ?? 'OLLAMA_HOST',
      status: invalid || decider !== undefined ? 'problem' : 'warning',
      message: `${ollama.error?.message ?? 'The Ollama server did not answer.'} Only decisions and provider: ollama agents need it.${decider === undefined ? '' : ` Workflow '${decider}' uses it.`}`,
      fix: ollama.guidance ?? "Start Ollama with 'ollama serve', or point OLLAMA_HOST at a running server.",
    });
  }
  for (const agent of skill.agents.filter((a) => a.current)) {
    const state = agent.state;
    checks.push({
      area: 'skill',
      subject: agent.agent,
      status:
        state === 'installed' ? 'ok' : state === 'missing' || state === 'foreign' ? 'warning' : 'problem',
      message: `The authoring skill for ${agent.agent} is ${state} at ${agent.path}.`,
      ...(state === 'installed'
        ? {}
        : {fix: agent.fix ?? `Run 'stratos skill install --agent ${agent.agent}'.`}),
    });
  }
  checks.push(...workflows.checks);
  const summary = {
    ok: checks.filter((c) => c.status === 'ok').length,
    warnings: checks.filter((c) => c.status === 'warning').length,
    problems: checks.filter((c) => c.status === 'problem').length,
  };
  return {ok: summary.problems === 0, summary, checks};
}

function checkNode(version: string): SetupCheck {
  const major = Number(version.split('.')[0]);
  return major >= minimumNodeMajor
    ? {area: 'node', subject: 'node', status: 'ok', message: `Node.js ${version}.`}
    : {
        area: 'node',
        subject: 'node',
        status: 'problem',
        message: `Node.js ${version} is older than ${minimumNodeMajor}, which Stratos needs.`,
        fix: `Install Node.js ${minimumNodeMajor} or newer.`,
      };
}

/**
 * The discovery roots and each workflow's manifest and configuration findings, plus which harnesses and whether
 * Ollama the valid workflows use (a harness or server a workflow needs is a problem, not a warning).
 */
async function checkWorkflows(host: ReturnType<typeof resolveHost>) {
  const discovery = await discover(host);
  const checks: SetupCheck[] = [];
  const harnesses = new Map<string, string>();
  let ollamaUser: string | undefined;
  for (const root of discovery.roots) {
    const count = discovery.workflows.filter((w) => w.root.directory === root.directory).length;
    checks.push({
      area: 'discovery',
      subject: root.directory,
      status: 'ok',
      message: existsSync(root.directory)
        ? `The ${root.kind} discovery root ${root.directory} holds ${count} ${count === 1 ? 'workflow' : 'workflows'}.`
        : root.kind === 'project'
          ? `The project discovery root ${root.directory} does not exist yet; 'stratos new <name>' creates it.`
          : `The user discovery root ${root.directory} does not exist; it is optional (workflows for every folder).`,
    });
  }
  for (const problem of discovery.problems) checks.push(findingCheck(problem.path ?? 'discovery', problem));
  for (const found of discovery.workflows) {
    const handle = await checkWorkflowConfiguration(found);
    const errors = handle.diagnostics.filter((d) => d.severity === 'error');
    for (const error of errors) checks.push(findingCheck(handle.name, error));
    if (errors.length > 0) continue;
    for (const agent of Object.values(handle.manifest?.agents ?? {})) {
      const harness = agent.harness;
      if (typeof harness === 'string' && !harnesses.has(harness)) harnesses.set(harness, handle.name);
      if (agent.provider === 'ollama') ollamaUser ??= handle.name;
    }
    if (Object.keys(handle.manifest?.decisions ?? {}).length > 0) ollamaUser ??= handle.name;
    checks.push({
      area: 'workflow',
      subject: handle.name,
      status: 'ok',
      message: `Workflow '${handle.name}' has a valid manifest (${handle.directory}).`,
    });
  }
  return {checks, harnesses, ollamaUser};
}

function findingCheck(subject: string, finding: Diagnostic): SetupCheck {
  const where = finding.location === undefined ? '' : `${formatLocation(finding.location)}: `;
  return {
    area: 'workflow',
    subject,
    status: 'problem',
    message: `${where}${finding.code}: ${finding.message}`,
    fix: `Fix the manifest ${finding.location === undefined ? '' : `at ${formatLocation(finding.location)} `}as the message says, then run 'stratos list' to check it.`,
  };
}

/** Every CLI command, declared as data. Adding a command is one entry here plus one file in this folder. */
import {type CommandSpec, jsonOption, nameOption} from './command.ts';

/** The templates of `stratos new` (folders under the package's `templates/`). */
export const workflowTemplates = ['basic', 'mcp', 'agent', 'decision'] as const;
/** The shells `stratos completion` writes a script for. */
export const completionShells = ['bash', 'zsh', 'fish'] as const;

/** `mcp login` and `mcp logout` pick a server the same way. */
const mcpServerOptions: CommandSpec['options'] = {
  json: jsonOption,
  name: {
    type: 'string',
    value: 'server',
    required: true,
    description: 'The MCP server name (a key of mcp.servers).',
  },
  workflow: {
    type: 'string',
    value: 'workflow',
    description: 'The workflow whose declaration to use when several declare the server differently.',
  },
};

/** `--queue [<name>]` of `run` and `runs list`. */
function queueOption(description: string): CommandSpec['options'][string] {
  return {type: 'string', value: 'name', valueOptional: true, description};
}

export const commands: CommandSpec[] = [
  {
    name: 'list',
    summary: 'List workflows: short descriptions and build freshness.',
    example: 'stratos list',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./list.ts')).listCommand,
  },
  {
    name: 'describe',
    summary: "Show a workflow's manual and input/output schemas.",
    example: 'stratos describe greet',
    positionals: ['workflow'],
    options: {json: jsonOption, name: nameOption},
    handlesSignal: true,
    load: async () => (await import('./describe.ts')).describeCommand,
  },
  {
    name: 'schema',
    summary: "Print a workflow's input/output JSON Schemas.",
    example: 'stratos schema greet --json',
    positionals: ['workflow'],
    options: {json: jsonOption, name: nameOption},
    handlesSignal: true,
    load: async () => (await import('./schema.ts')).schemaCommand,
  },
  {
    name: 'run',
    summary: 'Run a workflow with a JSON input (builds when needed).',
    example: `stratos run greet --input '{"name":"Ada"}'`,
    positionals: ['workflow'],
    options: {
      json: jsonOption,
      name: nameOption,
      input: {
        type: 'string',
        value: 'json',
        description: "The input object as JSON text ('-' reads it from stdin); default {}.",
      },
      'input-file': {type: 'string', value: 'path', description: 'Read the input object from a JSON file.'},
      verbose: {
        type: 'boolean',
        description: "On failure, also show the error's full stack, mapped to the authored .ts files.",
      },
      'budget-usd': {
        type: 'string',
        value: 'usd',
        description: 'Stop the run (with its descendants) once it has spent this many US dollars.',
      },
      'budget-tokens': {
        type: 'string',
        value: 'count',
        description: 'Stop the run (with its descendants) once it has used this many tokens.',
      },
      queue: queueOption(
        'Enqueue the run for a worker (stratos worker) and print its id; default queue: default.',
      ),
      wait: {
        type: 'boolean',
        description: 'With --queue: wait for the run and print its result as a local run does.',
      },
    },
    oneOf: {options: ['input', 'input-file'], required: false},
    handlesSignal: true,
    load: async () => (await import('./run.ts')).runCommand,
  },
  {
    name: 'worker',
    summary: 'Run queued runs on this machine until stopped (needs the engine).',
    example: 'stratos worker --queue nightly --concurrency 4',
    positionals: [],
    options: {
      json: jsonOption,
      queue: {type: 'string', value: 'name', description: 'The queue to take runs from; default: default.'},
      concurrency: {type: 'string', value: 'n', description: 'Runs of the queue at once on each worker.'},
      id: {
        type: 'string',
        value: 'id',
        description: 'The worker id; a restarted worker with the same id recovers its interrupted runs.',
      },
    },
    handlesSignal: true,
    summaryOmitted: true,
    load: async () => (await import('./worker.ts')).workerCommand,
  },
  {
    name: 'build',
    summary: 'Build one or every workflow and report diagnostics.',
    example: 'stratos build greet',
    positionals: ['workflow?'],
    options: {
      json: jsonOption,
      name: nameOption,
      force: {type: 'boolean', description: 'Rebuild even when the build is up to date.'},
    },
    handlesSignal: true,
    load: async () => (await import('./build.ts')).buildCommand,
  },
  {
    name: 'clean',
    summary: 'Delete generated artifacts (dist/, generated/).',
    example: 'stratos clean greet',
    positionals: ['workflow?'],
    options: {json: jsonOption, name: nameOption},
    load: async () => (await import('./clean.ts')).cleanCommand,
  },
  {
    name: 'mcp list',
    summary: 'List the MCP servers of every workflow.',
    example: 'stratos mcp list --json',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./mcp.ts')).mcpListCommand,
  },
  {
    name: 'mcp login',
    summary: 'Sign in to an OAuth MCP server and store its credentials.',
    example: 'stratos mcp login --name github',
    positionals: [],
    options: mcpServerOptions,
    handlesSignal: true,
    load: async () => (await import('./mcp-auth.ts')).mcpLoginCommand,
  },
  {
    name: 'mcp logout',
    summary: "Remove an MCP server's stored credentials.",
    example: 'stratos mcp logout --name github',
    positionals: [],
    options: mcpServerOptions,
    load: async () => (await import('./mcp-auth.ts')).mcpLogoutCommand,
  },
  {
    name: 'runs list',
    summary: 'List recent local runs with status and duration.',
    example: 'stratos runs list --limit 5',
    positionals: [],
    options: {
      json: jsonOption,
      all: {type: 'boolean', description: 'Runs of every invocation directory, not only this one.'},
      limit: {type: 'string', value: 'n', description: 'Show at most n runs, newest first; default 20.'},
      queue: queueOption(
        "Also list the engine's queued, running and finished runs (of one queue when named).",
      ),
    },
    load: async () => (await import('./runs.ts')).runsListCommand,
  },
  {
    name: 'runs show',
    summary: "Show a run's tree of operations with durations and status.",
    example: 'stratos runs show 1de0cda8',
    positionals: ['run'],
    options: {
      json: jsonOption,
      console: {
        type: 'boolean',
        description: 'Also show the console lines under the operation that wrote them.',
      },
    },
    load: async () => (await import('./runs.ts')).runsShowCommand,
  },
  {
    name: 'runs resume',
    summary: 'Resume an interrupted run; journaled steps are not redone.',
    example: 'stratos runs resume 1de0cda8',
    positionals: ['run'],
    options: {
      json: jsonOption,
      'allow-changed': {
        type: 'boolean',
        description: "Resume even though the workflow's authored files changed since the run.",
      },
      verbose: {
        type: 'boolean',
        description: "On failure, also show the error's full stack, mapped to the authored .ts files.",
      },
    },
    handlesSignal: true,
    load: async () => (await import('./runs-resume.ts')).runsResumeCommand,
  },
  {
    name: 'runs open',
    summary: 'Open a local page of runs with a waterfall of each.',
    example: 'stratos runs open --no-browser',
    positionals: ['run?'],
    options: {
      json: jsonOption,
      all: {type: 'boolean', description: 'Show runs of every invocation directory, not only this one.'},
      port: {type: 'string', value: 'n', description: 'Listen on this 127.0.0.1 port; default a free one.'},
      'no-browser': {type: 'boolean', description: 'Print the URL without opening a browser.'},
    },
    handlesSignal: true,
    load: async () => (await import('./runs-open.ts')).runsOpenCommand,
  },
  // stratos test: saved cases with scripted answers, and turning a run into a case (docs/testing.md)
  {
    name: 'test',
    summary: "Run a workflow's saved test cases, offline.",
    example: 'stratos test greet',
    positionals: ['workflow?'],
    options: {json: jsonOption, name: nameOption},
    handlesSignal: true,
    load: async () => (await import('./test.ts')).testCommand,
  },
  {
    name: 'runs record',
    summary: 'Turn a recorded run into a test case.',
    example: 'stratos runs record 1de0cda8 --case happy-path',
    positionals: ['run'],
    options: {
      json: jsonOption,
      case: {
        type: 'string',
        value: 'name',
        required: true,
        description: 'The case name: writes <workflow>/tests/<name>.yaml.',
      },
    },
    load: async () => (await import('./test.ts')).runsRecordCommand,
  },
  {
    name: 'tools list',
    summary: "List each harness's built-in tool names.",
    example: 'stratos tools list --json',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./tools.ts')).toolsListCommand,
  },
  {
    name: 'provider status',
    summary: 'Show harness installation, authentication and catalogs.',
    example: 'stratos provider status',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./provider.ts')).providerStatusCommand,
  },
];

/** `skill install` and `skill uninstall` select agents the same way. */
const skillAgentOptions: CommandSpec['options'] = {
  json: jsonOption,
  agent: {
    type: 'string',
    value: 'names',
    description: 'Comma-separated agents: claude-code, codex, opencode.',
  },
  all: {type: 'boolean', description: 'Every supported agent.'},
};

commands.push(
  {
    name: 'skill install',
    summary: "Link the bundled skill into agents' skill folders.",
    example: 'stratos skill install --agent claude-code,codex',
    positionals: [],
    options: skillAgentOptions,
    oneOf: {options: ['agent', 'all'], required: true},
    load: async () => (await import('./skill.ts')).skillInstallCommand,
  },
  {
    name: 'skill status',
    summary: "Show the state of each agent's skill link.",
    example: 'stratos skill status',
    positionals: [],
    options: {json: jsonOption, agent: skillAgentOptions.agent!},
    load: async () => (await import('./skill.ts')).skillStatusCommand,
  },
  {
    name: 'skill uninstall',
    summary: 'Remove the skill links Stratos made.',
    example: 'stratos skill uninstall --all',
    positionals: [],
    options: skillAgentOptions,
    oneOf: {options: ['agent', 'all'], required: true},
    load: async () => (await import('./skill.ts')).skillUninstallCommand,
  },
);

// Getting started and checking the setup
commands.push(
  {
    name: 'new',
    summary: 'Create a workflow from a template, ready to build and test.',
    example: 'stratos new greet --template agent',
    positionals: ['name'],
    options: {
      json: jsonOption,
      template: {
        type: 'string',
        value: 'template',
        choices: workflowTemplates,
        description: `The starting point: ${workflowTemplates.join(', ')}; default basic.`,
      },
    },
    load: async () => (await import('./new.ts')).newCommand,
  },
  {
    name: 'doctor',
    summary: 'Check Node, harnesses, Ollama, skill links and workflows, with fixes.',
    example: 'stratos doctor',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./doctor.ts')).doctorCommand,
  },
  {
    name: 'completion',
    summary: 'Print the shell completion script for bash, zsh or fish.',
    example: 'stratos completion bash >> ~/.bashrc',
    positionals: ['shell'],
    positionalChoices: {shell: completionShells},
    options: {json: jsonOption},
    load: async () => (await import('./completion.ts')).completionCommand,
  },
  {
    name: '__complete',
    summary: 'Print the completion candidates for the words after the program name (used by the scripts).',
    example: 'stratos __complete -- run gr',
    positionals: [],
    options: {},
    hidden: true,
    passThrough: true,
    load: async () => (await import('./complete.ts')).completeCommand,
  },
);

/** The resource groups (`stratos <group> <action>`): the summary their help and the root help show. */
export const commandGroups: Record<string, string> = {
  mcp: 'The MCP servers workflows declare, and their sign-in',
  runs: 'Recorded local runs and test cases made from them',
  skill: "The authoring skill in coding agents' skill folders",
  provider: 'Agent harnesses, their authentication and model catalogs',
  tools: "Each harness's built-in tool names",
};

/** Top-level commands the root help lists with the groups ("More") rather than under "Workflows". */
export const setupCommands: readonly string[] = ['doctor', 'completion'];

export function findCommand(words: readonly string[]): {spec: CommandSpec; consumed: number} | undefined {
  for (const spec of commands) {
    const parts = spec.name.split(' ');
    if (parts.every((part, index) => words[index] === part)) return {spec, consumed: parts.length};
  }
  return undefined;
}

/** The commands of one group (`mcp` -> `mcp list`, `mcp login`, ...), in declaration order. */
export function listGroupCommands(group: string): CommandSpec[] {
  return commands.filter((spec) => spec.name.startsWith(`${group} `));
}

/** The words a user can type first: top-level commands and group names, without hidden commands. */
export function listFirstWords(): string[] {
  return [...new Set(commands.filter((spec) => !spec.hidden).map((spec) => spec.name.split(' ')[0]!))];
}

/** Every CLI command, declared as data. Adding a command is one entry here plus one file in this folder. */
import {type CommandSpec, jsonOption, nameOption} from '../command.ts';

/** `mcp login` and `mcp logout` pick a server the same way. */
const mcpServerOptions: CommandSpec['options'] = {
  json: jsonOption,
  name: {type: 'string', value: 'server', description: 'The MCP server name (a key of mcp.servers).'},
  workflow: {
    type: 'string',
    value: 'workflow',
    description: 'The workflow whose declaration to use when several declare the server differently.',
  },
};

export const commands: CommandSpec[] = [
  {
    name: 'list',
    summary: 'List workflows: short descriptions and build freshness.',
    usage: 'stratos list [--json]',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./list.ts')).listCommand,
  },
  {
    name: 'describe',
    summary: "Show a workflow's manual and input/output schemas.",
    usage: 'stratos describe <workflow> [--json]',
    positionals: ['workflow'],
    options: {json: jsonOption, name: nameOption},
    handlesSignal: true,
    load: async () => (await import('./describe.ts')).describeCommand,
  },
  {
    name: 'schema',
    summary: "Print a workflow's input/output JSON Schemas.",
    usage: 'stratos schema <workflow> [--json]',
    positionals: ['workflow'],
    options: {json: jsonOption, name: nameOption},
    handlesSignal: true,
    load: async () => (await import('./schema.ts')).schemaCommand,
  },
  {
    name: 'run',
    summary: 'Run a workflow with a JSON input (builds when needed).',
    usage: "stratos run <workflow> [--input '<json>' | --input - | --input-file <path>] [--json]",
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
    },
    handlesSignal: true,
    load: async () => (await import('./run.ts')).runCommand,
  },
  {
    name: 'build',
    summary: 'Build one or every workflow and report diagnostics.',
    usage: 'stratos build [<workflow>] [--force] [--json]',
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
    usage: 'stratos clean [<workflow>] [--json]',
    positionals: ['workflow?'],
    options: {json: jsonOption, name: nameOption},
    load: async () => (await import('./clean.ts')).cleanCommand,
  },
  {
    name: 'mcp list',
    summary: 'List the MCP servers of every workflow.',
    usage: 'stratos mcp list [--json]',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./mcp.ts')).mcpListCommand,
  },
  {
    name: 'mcp login',
    summary: 'Sign in to an OAuth MCP server and store its credentials.',
    usage: 'stratos mcp login --name <server> [--workflow <name>] [--json]',
    positionals: [],
    options: mcpServerOptions,
    handlesSignal: true,
    load: async () => (await import('./mcp-auth.ts')).mcpLoginCommand,
  },
  {
    name: 'mcp logout',
    summary: "Remove an MCP server's stored credentials.",
    usage: 'stratos mcp logout --name <server> [--workflow <name>] [--json]',
    positionals: [],
    options: mcpServerOptions,
    load: async () => (await import('./mcp-auth.ts')).mcpLogoutCommand,
  },
  {
    name: 'runs list',
    summary: 'List recent local runs with status and duration.',
    usage: 'stratos runs list [--all] [--limit <n>] [--json]',
    positionals: [],
    options: {
      json: jsonOption,
      all: {type: 'boolean', description: 'Runs of every invocation directory, not only this one.'},
      limit: {type: 'string', value: 'n', description: 'Show at most n runs, newest first; default 20.'},
    },
    load: async () => (await import('./runs.ts')).runsListCommand,
  },
  {
    name: 'runs show',
    summary: "Show a run's tree of operations with durations and status.",
    usage: 'stratos runs show <run> [--json]',
    positionals: ['run'],
    options: {json: jsonOption},
    load: async () => (await import('./runs.ts')).runsShowCommand,
  },
  {
    name: 'runs open',
    summary: 'Open a local page of runs with a waterfall of each.',
    usage: 'stratos runs open [<run>] [--port <n>] [--no-browser] [--all] [--json]',
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
    usage: 'stratos test [<workflow>] [--json]',
    positionals: ['workflow?'],
    options: {json: jsonOption, name: nameOption},
    handlesSignal: true,
    load: async () => (await import('./test.ts')).testCommand,
  },
  {
    name: 'runs record',
    summary: 'Turn a recorded run into a test case.',
    usage: 'stratos runs record <run> --case <name> [--json]',
    positionals: ['run'],
    options: {
      json: jsonOption,
      case: {
        type: 'string',
        value: 'name',
        description: 'The case name: writes <workflow>/tests/<name>.yaml.',
      },
    },
    load: async () => (await import('./test.ts')).runsRecordCommand,
  },
  {
    name: 'tools list',
    summary: "List each harness's built-in tool names.",
    usage: 'stratos tools list [--json]',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./tools.ts')).toolsListCommand,
  },
  {
    name: 'provider status',
    summary: 'Show harness installation, authentication and catalogs.',
    usage: 'stratos provider status [--json]',
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
    usage: 'stratos skill install (--agent <names> | --all) [--json]',
    positionals: [],
    options: skillAgentOptions,
    load: async () => (await import('./skill.ts')).skillInstallCommand,
  },
  {
    name: 'skill status',
    summary: "Show the state of each agent's skill link.",
    usage: 'stratos skill status [--agent <names>] [--json]',
    positionals: [],
    options: {json: jsonOption, agent: skillAgentOptions.agent!},
    load: async () => (await import('./skill.ts')).skillStatusCommand,
  },
  {
    name: 'skill uninstall',
    summary: 'Remove the skill links Stratos made.',
    usage: 'stratos skill uninstall (--agent <names> | --all) [--json]',
    positionals: [],
    options: skillAgentOptions,
    load: async () => (await import('./skill.ts')).skillUninstallCommand,
  },
);

export function findCommand(words: readonly string[]): {spec: CommandSpec; consumed: number} | undefined {
  for (const spec of commands) {
    const parts = spec.name.split(' ');
    if (parts.every((part, index) => words[index] === part)) return {spec, consumed: parts.length};
  }
  return undefined;
}

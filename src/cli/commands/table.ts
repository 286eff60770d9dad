/** Every CLI command, declared as data. Adding a command is one entry here plus one file in this folder. */
import {type CommandSpec, jsonOption, nameOption} from '../command.ts';

export const commands: CommandSpec[] = [
  {
    name: 'list',
    summary: 'List discovered workflows with their short descriptions and build freshness.',
    usage: 'stratos list [--json]',
    positionals: [],
    options: {json: jsonOption},
    load: async () => (await import('./list.ts')).listCommand,
  },
  {
    name: 'describe',
    summary: "Show a workflow's manual (long description) and its input and output schemas.",
    usage: 'stratos describe <workflow> [--json]',
    positionals: ['workflow'],
    options: {json: jsonOption, name: nameOption},
    load: async () => (await import('./describe.ts')).describeCommand,
  },
  {
    name: 'schema',
    summary: "Print only a workflow's input and output JSON Schemas.",
    usage: 'stratos schema <workflow> [--json]',
    positionals: ['workflow'],
    options: {json: jsonOption, name: nameOption},
    load: async () => (await import('./schema.ts')).schemaCommand,
  },
  {
    name: 'run',
    summary: 'Run a workflow with a JSON input object (builds it first when needed).',
    usage: "stratos run <workflow> --input '<json>' [--json]",
    positionals: ['workflow'],
    options: {
      json: jsonOption,
      name: nameOption,
      input: {type: 'string', value: 'json', description: 'The input object as JSON text; default {}.'},
    },
    load: async () => (await import('./run.ts')).runCommand,
  },
  {
    name: 'build',
    summary: 'Build one workflow, or every discovered workflow, and report diagnostics.',
    usage: 'stratos build [<workflow>] [--force] [--json]',
    positionals: ['workflow?'],
    options: {
      json: jsonOption,
      name: nameOption,
      force: {type: 'boolean', description: 'Rebuild even when the build is up to date.'},
    },
    load: async () => (await import('./build.ts')).buildCommand,
  },
  {
    name: 'clean',
    summary:
      'Delete generated artifacts (dist/, generated/); keeps authored files, dependencies and credentials.',
    usage: 'stratos clean [<workflow>] [--json]',
    positionals: ['workflow?'],
    options: {json: jsonOption, name: nameOption},
    load: async () => (await import('./clean.ts')).cleanCommand,
  },
];

export function findCommand(words: readonly string[]): {spec: CommandSpec; consumed: number} | undefined {
  for (const spec of commands) {
    const parts = spec.name.split(' ');
    if (parts.every((part, index) => words[index] === part)) return {spec, consumed: parts.length};
  }
  return undefined;
}

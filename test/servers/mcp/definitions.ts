import {readFileSync} from 'node:fs';
import {
  AGENTSTACK_DESCRIPTION,
  AGENTSTACK_INPUT_SCHEMA,
  AGENTSTACK_OUTPUT_SCHEMA,
  AGENTSTACK_TITLE,
} from './agentstack-spec.ts';
import type {JsonObject, ServerDefinition, ToolContext, ToolDefinition, ToolResult} from './types.ts';

const VERSION = '1.0.0';

function text(value: unknown): {type: 'text'; text: string} {
  return {type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value)};
}

/** A result whose structuredContent is `value`, mirrored as a JSON text block. */
function structured(value: unknown): ToolResult {
  return {content: [text(value)], structuredContent: value};
}

function stringProp(description: string): JsonObject {
  return {type: 'string', description};
}

function objectSchema(properties: JsonObject, required: string[] = []): JsonObject {
  return {type: 'object', properties, required, additionalProperties: false};
}

// ---------------------------------------------------------------------------------------------------------
// agentstack
// ---------------------------------------------------------------------------------------------------------

interface AgentStackStep {
  id?: unknown;
  action?: unknown;
  params?: unknown;
}

const agentstack: ServerDefinition = {
  name: 'agentstack',
  title: AGENTSTACK_TITLE,
  version: VERSION,
  tools: () => [
    {
      name: 'agentstack.execute',
      description: AGENTSTACK_DESCRIPTION,
      inputSchema: AGENTSTACK_INPUT_SCHEMA,
      outputSchema: AGENTSTACK_OUTPUT_SCHEMA,
      handler: (args, ctx) => {
        const steps = Array.isArray(args.steps) ? (args.steps as AgentStackStep[]) : [];
        const data = {
          steps: steps.map((step) => ({
            id: step.id,
            action: step.action,
            ok: true,
            echo: step.params ?? {},
          })),
          context: args.context ?? {},
          options: args.options ?? {},
        };
        return structured({success: true, data, trace_id: `trace-${ctx.seq}-${process.pid}`});
      },
    },
  ],
};

// ---------------------------------------------------------------------------------------------------------
// escapes: tool names that need escaping in generated identifiers
// ---------------------------------------------------------------------------------------------------------

const ECHO_OUTPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: {tool: {type: 'string'}, echo: {type: 'object', additionalProperties: true}},
  required: ['tool', 'echo'],
};

function echoTool(name: string, inputSchema: JsonObject, withOutputSchema = true): ToolDefinition {
  return {
    name,
    description: `Echoes its arguments back (tool name ${JSON.stringify(name)}).`,
    inputSchema,
    ...(withOutputSchema ? {outputSchema: ECHO_OUTPUT_SCHEMA} : {}),
    handler: (args) =>
      withOutputSchema ? structured({tool: name, echo: args}) : {content: [text({tool: name, echo: args})]},
  };
}

const escapes: ServerDefinition = {
  name: 'escapes',
  version: VERSION,
  tools: () => [
    echoTool('get-me', objectSchema({login: stringProp('Login to look up.')})),
    echoTool('dotted.name', objectSchema({value: stringProp('Any value.')}, ['value'])),
    echoTool(
      'price$',
      objectSchema({amount: {type: 'number'}, currency: {type: 'string', enum: ['EUR', 'USD']}}),
    ),
    echoTool('café', objectSchema({sugar: {type: 'boolean'}})),
    echoTool('🚀launch', objectSchema({target: stringProp('Where to go.')}, ['target'])),
    echoTool('plain_name', objectSchema({n: {type: 'integer'}}), false),
  ],
};

// ---------------------------------------------------------------------------------------------------------
// schemas: output-schema variety, errors, cancellation, latency
// ---------------------------------------------------------------------------------------------------------

const EMPTY_INPUT: JsonObject = {type: 'object', properties: {}};

/** Resolves after `ms`, rejecting early with the abort reason when `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, {once: true});
  });
}

/** Never settles on its own; rejects with the abort reason when the request is cancelled. */
function hangUntilAborted(ctx: ToolContext): Promise<ToolResult> {
  return new Promise((_resolve, reject) => {
    // Keep the event loop alive while hanging, as a real long-running tool would.
    const keepAlive = setInterval(() => {}, 60_000);
    const onAbort = (): void => {
      clearInterval(keepAlive);
      reject(ctx.signal.reason ?? new Error('cancelled'));
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, {once: true});
  });
}

const schemas: ServerDefinition = {
  name: 'schemas',
  version: VERSION,
  tools: () => [
    {
      name: 'array_out',
      description: 'Returns an array of strings.',
      inputSchema: EMPTY_INPUT,
      outputSchema: {type: 'array', items: {type: 'string'}},
      handler: () => structured(['alpha', 'beta', 'gamma']),
    },
    {
      name: 'number_out',
      description: 'Returns a number.',
      inputSchema: EMPTY_INPUT,
      outputSchema: {type: 'number'},
      handler: () => structured(42.5),
    },
    {
      name: 'null_out',
      description: 'Returns null.',
      inputSchema: EMPTY_INPUT,
      outputSchema: {type: 'null'},
      handler: () => structured(null),
    },
    {
      name: 'empty_out',
      description: 'Declares the empty output schema {}: structured content is required but has no shape.',
      inputSchema: EMPTY_INPUT,
      outputSchema: {},
      handler: () => structured({anything: ['goes', 1, true]}),
    },
    {
      name: 'object_out',
      description: 'Returns an object with a required string name.',
      inputSchema: objectSchema({name: stringProp('Name to return; defaults to "widget".')}),
      outputSchema: {type: 'object', properties: {name: {type: 'string'}}, required: ['name']},
      handler: (args) => structured({name: typeof args.name === 'string' ? args.name : 'widget'}),
    },
    {
      name: 'no_schema',
      description: 'Declares no output schema and returns only text.',
      inputSchema: EMPTY_INPUT,
      handler: () => ({content: [text('plain text result')]}),
    },
    {
      name: 'is_error',
      description: 'Always reports a tool-level error (isError: true).',
      inputSchema: EMPTY_INPUT,
      handler: () => ({content: [text('is_error: the tool failed on purpose')], isError: true}),
    },
    {
      name: 'bad_structured',
      description: 'Declares {name: string} but returns {name: 42}.',
      inputSchema: EMPTY_INPUT,
      outputSchema: {type: 'object', properties: {name: {type: 'string'}}, required: ['name']},
      handler: () => structured({name: 42}),
    },
    {
      name: 'missing_structured',
      description: 'Declares an output schema but returns no structuredContent.',
      inputSchema: EMPTY_INPUT,
      outputSchema: {type: 'object', properties: {value: {type: 'string'}}, required: ['value']},
      handler: () => ({content: [text('{"value":"only as text"}')]}),
    },
    {
      name: 'hang',
      description: 'Never answers; ends only when the request is cancelled.',
      inputSchema: EMPTY_INPUT,
      handler: (_args, ctx) => hangUntilAborted(ctx),
    },
    {
      name: 'slow',
      description: 'Answers after `ms` milliseconds.',
      inputSchema: objectSchema({ms: {type: 'integer', minimum: 0}}, ['ms']),
      outputSchema: {type: 'object', properties: {waitedMs: {type: 'integer'}}, required: ['waitedMs']},
      handler: async (args, ctx) => {
        const ms = typeof args.ms === 'number' ? args.ms : 0;
        // When it ran (beyond the declared schema), so a test can check it waited.
        const startedAt = Date.now();
        await delay(ms, ctx.signal);
        return structured({waitedMs: ms, startedAt, endedAt: Date.now()});
      },
    },
    {
      name: 'gather',
      description:
        'Answers once `count` calls of it are in progress at the same time (overlapped: true), or after `limitMs` (overlapped: false).',
      inputSchema: objectSchema(
        {count: {type: 'integer', minimum: 1}, limitMs: {type: 'integer', minimum: 0}},
        ['count', 'limitMs'],
      ),
      outputSchema: {type: 'object', properties: {overlapped: {type: 'boolean'}}, required: ['overlapped']},
      handler: async (args, ctx) => {
        const count = typeof args.count === 'number' ? args.count : 1;
        const limitMs = typeof args.limitMs === 'number' ? args.limitMs : 0;
        return structured({overlapped: await gatherCalls(count, limitMs, ctx.signal)});
      },
    },
  ],
};

const gathering = {inProgress: 0, wakers: new Set<() => void>()};

/** Whether `count` gather calls were in progress at once before `limitMs` passed: overlap without timing it. */
async function gatherCalls(count: number, limitMs: number, signal: AbortSignal): Promise<boolean> {
  gathering.inProgress += 1;
  try {
    if (gathering.inProgress >= count) {
      for (const wake of gathering.wakers) wake();
      return true;
    }
    return await new Promise<boolean>((resolve) => {
      const settle = (overlapped: boolean) => {
        clearTimeout(timer);
        gathering.wakers.delete(wake);
        signal.removeEventListener('abort', abort);
        resolve(overlapped);
      };
      const wake = () => settle(true);
      const abort = () => settle(false);
      const timer = setTimeout(() => settle(false), limitMs);
      gathering.wakers.add(wake);
      signal.addEventListener('abort', abort, {once: true});
    });
  } finally {
    gathering.inProgress -= 1;
  }
}

// ---------------------------------------------------------------------------------------------------------
// changing: schema depends on a variant file read at tools/list (and tools/call) time
// ---------------------------------------------------------------------------------------------------------

export type ChangingVariant = 'a' | 'b' | 'removed';

export function readVariant(schemaFile: string | undefined): ChangingVariant {
  if (schemaFile === undefined) return 'a';
  let raw: string;
  try {
    raw = readFileSync(schemaFile, 'utf8');
  } catch {
    return 'a';
  }
  const variant = (JSON.parse(raw) as {variant?: unknown}).variant;
  if (variant === 'a' || variant === 'b' || variant === 'removed') return variant;
  throw new Error(`Invalid variant in ${schemaFile}: ${JSON.stringify(variant)}`);
}

const changing: ServerDefinition = {
  name: 'changing',
  version: VERSION,
  tools: (settings) => {
    const variant = readVariant(settings.schemaFile);
    if (variant === 'removed') {
      return [
        {
          name: 'other',
          description: 'Replacement tool present when lookup has been removed.',
          inputSchema: objectSchema({q: stringProp('Query.')}),
          outputSchema: {type: 'object', properties: {variant: {type: 'string'}}, required: ['variant']},
          handler: () => structured({variant}),
        },
      ];
    }
    if (variant === 'a') {
      return [
        {
          name: 'lookup',
          description: 'Looks up a record by string id (variant a).',
          inputSchema: objectSchema({id: stringProp('Record id.')}, ['id']),
          outputSchema: {type: 'object', properties: {name: {type: 'string'}}, required: ['name']},
          handler: (args) => structured({name: `record-${String(args.id)}`}),
        },
      ];
    }
    return [
      {
        name: 'lookup',
        description: 'Looks up a record by numeric id (variant b).',
        inputSchema: objectSchema({id: {type: 'integer'}, verbose: {type: 'boolean'}}, ['id']),
        outputSchema: {
          type: 'object',
          properties: {name: {type: 'string'}, score: {type: 'number'}},
          required: ['name', 'score'],
        },
        handler: (args) => structured({name: `record-${String(args.id)}`, score: Number(args.id) / 10}),
      },
    ];
  },
};

// ---------------------------------------------------------------------------------------------------------
// large: N generated tools for discovery / generation benchmarks
// ---------------------------------------------------------------------------------------------------------

function largeTool(index: number): ToolDefinition {
  const name = `tool_${String(index).padStart(4, '0')}`;
  const shapes: JsonObject[] = [
    objectSchema({query: stringProp('Search text.')}, ['query']),
    objectSchema({count: {type: 'integer', minimum: 0}, enabled: {type: 'boolean'}}),
    objectSchema({mode: {type: 'string', enum: ['fast', 'safe', 'thorough']}}, ['mode']),
    objectSchema(
      {
        filter: objectSchema({field: {type: 'string'}, value: {type: ['string', 'number', 'null']}}, [
          'field',
        ]),
      },
      ['filter'],
    ),
    objectSchema({tags: {type: 'array', items: {type: 'string'}, maxItems: 10}}),
  ];
  const outputs: Array<JsonObject | undefined> = [
    {
      type: 'object',
      properties: {index: {type: 'integer'}, echo: {type: 'object'}},
      required: ['index', 'echo'],
    },
    undefined,
    {type: 'object', properties: {ok: {type: 'boolean'}}, required: ['ok']},
  ];
  const inputSchema = shapes[index % shapes.length]!;
  const outputSchema = outputs[index % outputs.length];
  return {
    name,
    description: `Generated tool #${index} (${index % shapes.length === 0 ? 'search' : 'utility'}).`,
    inputSchema,
    ...(outputSchema ? {outputSchema} : {}),
    handler: (args) => {
      if (outputSchema === undefined) return {content: [text({index, echo: args})]};
      return structured(index % outputs.length === 0 ? {index, echo: args} : {ok: true});
    },
  };
}

const large: ServerDefinition = {
  name: 'large',
  version: VERSION,
  tools: (settings) => Array.from({length: settings.toolCount}, (_, index) => largeTool(index)),
};

// ---------------------------------------------------------------------------------------------------------
// counter: minimal tools for call-overhead benchmarks
// ---------------------------------------------------------------------------------------------------------

const counter: ServerDefinition = {
  name: 'counter',
  version: VERSION,
  tools: () => [
    {
      name: 'echo',
      description: 'Returns its input text.',
      inputSchema: objectSchema({text: stringProp('Text to echo.')}, ['text']),
      outputSchema: {type: 'object', properties: {text: {type: 'string'}}, required: ['text']},
      handler: (args) => ({content: [text(String(args.text))], structuredContent: {text: args.text}}),
    },
    {
      name: 'add',
      description: 'Adds two numbers; also reports how many calls this server process has served.',
      inputSchema: objectSchema({a: {type: 'number'}, b: {type: 'number'}}, ['a', 'b']),
      outputSchema: {
        type: 'object',
        properties: {sum: {type: 'number'}, calls: {type: 'integer'}},
        required: ['sum', 'calls'],
      },
      handler: (args, ctx) => structured({sum: Number(args.a) + Number(args.b), calls: ctx.seq}),
    },
  ],
};

export const SERVER_DEFINITIONS: Readonly<Record<string, ServerDefinition>> = {
  agentstack,
  escapes,
  schemas,
  changing,
  large,
  counter,
};

export const SERVER_NAMES = Object.keys(SERVER_DEFINITIONS);

export function getServerDefinition(name: string): ServerDefinition {
  const definition = SERVER_DEFINITIONS[name];
  if (definition === undefined) {
    throw new Error(
      `Unknown MCP test server ${JSON.stringify(name)}; expected one of ${SERVER_NAMES.join(', ')}`,
    );
  }
  return definition;
}

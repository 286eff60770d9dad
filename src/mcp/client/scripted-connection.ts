/**
 * `stratos test`: the connection of an MCP server the running case scripts. It connects to nothing; each call
 * opens its step and is answered by the run's recorded steps (the case's scripts, matched by tool name and
 * arguments), then treated like a server's result:
 * recorded on a `tools/call` span, `isError` raised as McpToolError, structured content validated against the
 * wrapper's snapshot.
 */
import type {ExecutionContext} from '../../context/execution-context.ts';
import {openStep} from '../../context/step-seam.ts';
import {McpToolError, StratosError} from '../../errors/index.ts';
import {toRecordedJson} from '../../telemetry/index.ts';
import type {McpToolSnapshot} from '../codegen/index.ts';
import type {McpServerConnection} from './connect-server.ts';
import type {McpToolResult} from './tool-result.ts';
import {assertStructuredContent} from './validate-output.ts';

export async function connectScriptedServer(
  context: ExecutionContext,
  server: string,
  tools: readonly McpToolSnapshot[],
): Promise<McpServerConnection> {
  const snapshots = new Map(tools.map((tool) => [tool.name, tool]));
  const attributes = {'mcp.server': server, 'mcp.transport': 'scripted'};
  let closed = false;
  context.resources.register({
    label: `mcp:${server}`,
    close: async () => {
      closed = true;
    },
  });
  await context.telemetry.operation(
    {kind: 'mcp.connect', name: `connect ${server}`, attributes},
    async () => {},
  );
  return {
    server,
    protocolVersion: undefined,
    callTool(name, args) {
      const step = openStep(context, {kind: 'mcp', name: `${server}/${name}`, arguments: args ?? {}});
      return context.telemetry.operation(
        {
          kind: 'mcp.call',
          name: `tools/call ${name}`,
          attributes: {
            ...attributes,
            'mcp.tool': name,
            'gen_ai.tool.name': name,
            'gen_ai.tool.call.arguments': toRecordedJson(args ?? {}),
          },
        },
        async (scope) => {
          context.abortController.signal.throwIfAborted();
          if (closed)
            throw new StratosError(
              'STRATOS_MCP_CALL_CANCELLED',
              `The scripted connection to MCP server '${server}' was closed, because its workflow invocation ended, before tool '${name}' was called. Await every tool call inside run.`,
              {details: {server, tool: name}},
            );
          const scripted = step.answer({server, tool: name});
          const result = structuredClone(
            scripted?.source === 'case' ? scripted.value : undefined,
          ) as McpToolResult;
          if (result.isError === true) throw new McpToolError(server, name, result);
          const schema = snapshots.get(name)?.outputSchema;
          if (schema !== undefined) assertStructuredContent(server, name, schema, result.structuredContent);
          scope.setAttributes({
            'gen_ai.tool.call.result': toRecordedJson(
              result.structuredContent === undefined
                ? {content: result.content}
                : {content: result.content, structuredContent: result.structuredContent},
            ),
          });
          return result;
        },
      );
    },
  };
}

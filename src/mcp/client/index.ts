/** Direct MCP connections of workflow code, and build-time tool discovery. */
export {
  type ConnectMcpServerOptions,
  connectMcpServer,
  type McpServerConnection,
} from './connect-server.ts';
export {type DiscoveredMcpTools, type DiscoverMcpToolsOptions, discoverMcpTools} from './discover-tools.ts';
export {
  forgetVerdicts,
  type McpNegotiationVerdict,
  type McpNegotiationVerdicts,
  negotiationVerdictFile,
  parseVerdicts,
  readRememberedVerdicts,
} from './negotiation-verdict.ts';
export {describeTransport, McpClientSession, type McpElicitationHandler} from './open-client.ts';
export {defaultMcpRequestTimeoutMs, resolveMcpRequestTimeoutMs} from './request-timeout.ts';
export {type McpTransportSpec, resolveMcpTransport, transportIdentity} from './resolve-transport.ts';
export type {McpContentBlock, McpToolResult} from './tool-result.ts';
export {assertStructuredContent} from './validate-output.ts';

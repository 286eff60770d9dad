/** The time limit of direct MCP requests: five minutes (docs/contributing/design-decisions.md "Runtime defaults"), no retry. */

/** Five minutes. */
export const defaultMcpRequestTimeoutMs = 300_000;

/**
 * The request limit in milliseconds. `STRATOS_MCP_REQUEST_TIMEOUT_MS` overrides it for Stratos's own tests only
 * (a hanging tool must not hold a test for five minutes); it is not a user setting.
 */
export function resolveMcpRequestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const override = Number(env.STRATOS_MCP_REQUEST_TIMEOUT_MS);
  return Number.isInteger(override) && override > 0 ? override : defaultMcpRequestTimeoutMs;
}

/** Thirty seconds: a server that has not answered the connect exchange by then is not going to. */
export const defaultMcpConnectTimeoutMs = 30_000;

/**
 * The limit of connecting (spawn or HTTP, then the probe or `initialize`, every attempt together), separate from
 * the request limit of discovery and tool calls. `STRATOS_MCP_CONNECT_TIMEOUT_MS` overrides it for Stratos's own
 * tests only; it is not a user setting.
 */
export function resolveMcpConnectTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const override = Number(env.STRATOS_MCP_CONNECT_TIMEOUT_MS);
  return Number.isInteger(override) && override > 0 ? override : defaultMcpConnectTimeoutMs;
}

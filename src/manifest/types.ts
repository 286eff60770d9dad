/** The parsed, validated shape of workflow.yaml (docs/contributing/design-decisions.md "Manifest fields"). */

export interface HttpMcpServerConfig {
  type: 'http';
  url: string;
  headers?: Record<string, string>;
  auth?: OAuthConfig;
}

export interface OAuthConfig {
  type: 'oauth';
  /** Default `authorization_code` (browser sign-in); `client_credentials` for machine clients (SEP-1046). */
  grant?: 'authorization_code' | 'client_credentials';
  clientId?: string;
  clientSecret?: string;
  /** client_credentials only: the `{file:}`/`{env:}` reference of a private key for `private_key_jwt`. */
  privateKey?: string;
  /** client_credentials only: the JWS algorithm of the client assertion (default from the key type). */
  signingAlgorithm?: string;
  scope?: string;
  callbackPort?: number;
  redirectUri?: string;
  clientMetadataUrl?: string;
}

export interface StdioMcpServerConfig {
  type: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

export type McpServerConfig = HttpMcpServerConfig | StdioMcpServerConfig;

export type TelemetryExporterConfig =
  | {type: 'file'; path: string}
  | {
      type: 'otlp';
      protocol: 'http/json' | 'http/protobuf' | 'grpc';
      endpoint: string;
      headers?: Record<string, string>;
    };

export interface WorkflowManifest {
  name: string;
  shortDescription: string;
  longDescription: string;
  version: string;
  /** Relative path of the TypeScript entrypoint; `workflow.ts` when omitted. */
  entrypoint: string;
  mcp?: {servers: Record<string, McpServerConfig>};
  /** Named agent configurations; their fields are validated by the agents module. */
  agents?: Record<string, Record<string, unknown>>;
  /** Named Decision configurations; their fields are validated by the decision module. */
  decisions?: Record<string, Record<string, unknown>>;
  telemetry?: {exporters: TelemetryExporterConfig[]};
  /** What a run of this workflow may spend, its descendants included. */
  budget?: WorkflowBudget;
}

/** A spending limit: tokens (input and output) and/or US dollars; either or both. */
export interface WorkflowBudget {
  tokens?: number;
  usd?: number;
}

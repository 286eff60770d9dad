/** The OAuth-enabled HTTP MCP servers a manifest declares. */
import type {HttpMcpServerConfig, OAuthConfig, WorkflowManifest} from '../../manifest/index.ts';

export interface OAuthServerEntry {
  name: string;
  config: HttpMcpServerConfig & {auth: OAuthConfig};
}

export function oauthServersOf(manifest: WorkflowManifest): OAuthServerEntry[] {
  const entries: OAuthServerEntry[] = [];
  for (const [name, config] of Object.entries(manifest.mcp?.servers ?? {})) {
    if (config.type === 'http' && config.auth?.type === 'oauth') {
      entries.push({name, config: config as OAuthServerEntry['config']});
    }
  }
  return entries;
}

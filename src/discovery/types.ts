import type {Diagnostic, SourceLocation} from '../errors/index.ts';
import type {ManifestParseResult, WorkflowManifest} from '../manifest/index.ts';

/** A folder whose subfolders are workflows: `<cwd>/.stratos/workflows` (project) or `~/.stratos/workflows` (user). */
export interface DiscoveryRoot {
  kind: 'project' | 'user' | 'path';
  directory: string;
}

/** A discovered workflow folder. Finding it read its manifest and nothing else. */
export interface WorkflowHandle {
  /** The manifest name, or the folder name when the manifest is invalid. */
  name: string;
  directory: string;
  root: DiscoveryRoot;
  manifest: WorkflowManifest | undefined;
  /** Manifest findings: errors make the workflow unusable, warnings do not. */
  diagnostics: Diagnostic[];
  /** SHA-256 of the workflow.yaml bytes the manifest was validated from. */
  manifestHash: string;
  /** The manifest came from the last build's cache (the workflow.yaml bytes are unchanged since). */
  manifestCached?: boolean;
  /** Where a manifest path is (for diagnostics); may parse the manifest, so call it only to report a problem. */
  locate(path: Parameters<ManifestParseResult['locate']>[0]): Promise<SourceLocation>;
}

export interface DiscoveryResult {
  roots: DiscoveryRoot[];
  workflows: WorkflowHandle[];
  /** Problems of the roots themselves, such as two workflows with one name in one root. */
  problems: Diagnostic[];
}

export interface DiscoveryOptions {
  cwd: string;
  /** The Stratos home (`STRATOS_HOME` or `~/.stratos`). */
  home: string;
}

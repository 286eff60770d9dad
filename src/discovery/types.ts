import type {Diagnostic} from '../errors/index.ts';
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
  locate: ManifestParseResult['locate'];
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

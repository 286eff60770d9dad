export {discoverRoot, discoverWorkflows, discoveryRoots, readWorkflowFolder} from './discover-workflows.ts';
export {type CachedManifest, readCachedManifest, writeManifestCache} from './manifest-cache.ts';
export {isPathTarget, resolveWorkflow} from './resolve-workflow.ts';
export type {DiscoveryOptions, DiscoveryResult, DiscoveryRoot, WorkflowHandle} from './types.ts';

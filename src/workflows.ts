/** The entry generated child-workflow wrappers import: `@stratoscli/stratos/workflows`. Named re-exports only. */
export {type ChildWorkflow, type ChildWorkflowBindings, createChildWorkflow} from './runtime/index.ts';

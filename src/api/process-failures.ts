/**
 * For the process shell (the CLI): failures the process sees rather than a workflow body (an uncaught error, a
 * process.exit call, an event loop with nothing left to wait for) fail the running workflow they belong to; the
 * runs of this process are recorded failed when the process must exit on a failure no run could take.
 */

export {
  failRunningWorkflows,
  type ProcessFailure,
  type ProcessFailureOutcome,
} from '../runtime/running-bodies.ts';
export {recordUnfinishedRunsFailed} from '../telemetry/artifacts/run-artifacts.ts';

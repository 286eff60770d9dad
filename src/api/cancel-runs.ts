/** For a CLI that must exit at once (a second SIGINT or SIGTERM): the runs of this process are recorded cancelled. */
export {recordUnfinishedRunsCancelled} from '../telemetry/artifacts/run-artifacts.ts';

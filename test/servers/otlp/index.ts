export type {
  OtlpProtocol,
  OtlpReceiver,
  OtlpReceiverOptions,
  ReceivedRequest,
  ReceivedSpan,
} from './receiver.ts';
export {startOtlpReceiver, TRACES_PATH} from './receiver.ts';
export {renderSpanTree} from './span-tree.ts';

/** W3C trace context identities: 16-byte trace ids and 8-byte span ids as lowercase hex. */
import {randomHex} from '../internal/random-hex.ts';

export function createTraceId(): string {
  return randomHex(16);
}

export function createSpanId(): string {
  return randomHex(8);
}

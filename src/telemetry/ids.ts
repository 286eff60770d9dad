/** W3C trace context identities: 16-byte trace ids and 8-byte span ids as lowercase hex. */
import {randomBytes} from 'node:crypto';

export function createTraceId(): string {
  return randomBytes(16).toString('hex');
}

export function createSpanId(): string {
  return randomBytes(8).toString('hex');
}

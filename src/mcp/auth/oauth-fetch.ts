/** The fetch of OAuth requests: each one limited in time and cancelled with the sign-in or invocation. */
import type {FetchLike} from '@modelcontextprotocol/client';

/** Limit of one discovery, registration or token request. */
export const oauthRequestTimeoutMs = 30_000;

export function createOAuthFetch(signal?: AbortSignal, timeoutMs = oauthRequestTimeoutMs): FetchLike {
  return (url, init) => {
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (signal !== undefined) signals.push(signal);
    if (init?.signal !== undefined && init.signal !== null) signals.push(init.signal);
    return fetch(url, {...init, signal: AbortSignal.any(signals)});
  };
}

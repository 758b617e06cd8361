// "Was it sent": the one policy for telling a request that never reached the service from one
// whose fate is unknown. The transport retries the first kind (nothing can be duplicated); the jobs
// outbox sends a job request that failed so again as the same row (core/jobs/resend-policy.ts:
// nothing was created), rather than leaving it to the job list as one whose fate is unknown.

/** System codes of failures before any byte could reach the server. */
export const UNSENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Timeout phases (got's `event`) that end before the request is written: DNS, TCP, TLS handshake. */
export const UNSENT_TIMEOUT_PHASES: ReadonlySet<string> = new Set(['lookup', 'connect', 'secureConnect']);

/** A network failure, by its system code or the phase in which it timed out. */
export function failedUnsent(failure: { networkCode?: string; timeoutPhase?: string }): boolean {
  if (failure.timeoutPhase !== undefined) return UNSENT_TIMEOUT_PHASES.has(failure.timeoutPhase);
  return failure.networkCode !== undefined && UNSENT_NETWORK_CODES.has(failure.networkCode);
}

/** Whether an error thrown by the client says the request never reached the service. */
export function neverSent(error: unknown): boolean {
  return (error as { unsent?: unknown } | null)?.unsent === true;
}

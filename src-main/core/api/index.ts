// Public surface of core/api: the typed service client and what its callers need to handle errors.
export { createServiceClient } from './service-client.ts';
export type {
  CallOptions,
  CreateModelBody,
  ImageListOptions,
  JobListOptions,
  ServiceClient,
  ServiceClientOptions,
  VideoListOptions,
} from './service-client.ts';
export { collectAll } from './pagination.ts';
export { ServiceError } from './errors.ts';
export { DEFAULT_RETRY_POLICY, decideRetry, parseRetryAfterMs } from './retry-policy.ts';
export type { RetryClass, RetryPolicyOptions, RetryTiming } from './retry-policy.ts';
export { DEFAULT_TIMEOUTS } from './transport.ts';
export type { ClientTimeouts } from './transport.ts';
export type { UploadImageRequest, UploadProgress } from './upload.ts';

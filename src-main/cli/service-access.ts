// The one door to a raw service call, for the few commands no channel covers (create or delete a
// model, read one image, video or job as the service has it): the open account's own API client,
// with its headers, retries, error mapping and key redaction.
import type { ServiceClient } from '../core/api/service-client.ts';
import type { Session } from './session.ts';

export async function serviceClient(session: Session): Promise<ServiceClient> {
  await session.requireAccount();
  return session.core.serviceClient();
}

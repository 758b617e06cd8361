// Per-request facts decided by the hooks (authenticated user, response faults), kept off the request object's type.
import type { FastifyRequest } from 'fastify';
import { ServiceError } from './envelope.ts';

const users = new WeakMap<FastifyRequest, string>();
const responseFaults = new WeakMap<FastifyRequest, 'truncate' | 'malformed'>();
const mediaCuts = new WeakMap<FastifyRequest, number>();

export function setUser(request: FastifyRequest, userId: string): void {
  users.set(request, userId);
}

/** The authenticated caller; the auth hook has already refused requests without one. */
export function userOf(request: FastifyRequest): string {
  const user = users.get(request);
  if (!user) throw new ServiceError(401, 'unauthorized', 'Missing or unknown API key');
  return user;
}

export function setResponseFault(request: FastifyRequest, fault: 'truncate' | 'malformed'): void {
  responseFaults.set(request, fault);
}

export function responseFaultOf(request: FastifyRequest): 'truncate' | 'malformed' | undefined {
  return responseFaults.get(request);
}

export function setMediaCut(request: FastifyRequest, bytes: number): void {
  mediaCuts.set(request, bytes);
}

export function mediaCutOf(request: FastifyRequest): number | undefined {
  return mediaCuts.get(request);
}

// Types of the account layer: which service, which key, which database; shared by core and hosts.
import type { ServiceClient } from '../api/service-client.ts';
import type { AccountDb } from '../db/account-db.ts';

/** Injected by the host (browser mode, the shell): starts the emulator in-process. Core never imports it. */
export interface DemoService {
  start(): Promise<{ baseUrl: string; apiKey: string }>;
  stop(): Promise<void>;
}

/** Names one account's database: the service address plus the key's fingerprint, or the demo. */
export type AccountRef = { baseUrl: string; keyFingerprint: string } | 'demo';

/** The demo keeps its files in a folder of its own inside the library, so they never mix. */
export const DEMO_AREA = 'Demo';

/** An open account: its cache, its API client, and where its files go in the library folder. */
export interface AccountSession {
  mode: 'demo' | 'service';
  /** The account's database with its repositories (db/account-db.ts). */
  cache: AccountDb;
  client: ServiceClient;
  /** The service address (media links of a remote service may not lead to local addresses). */
  baseUrl: string;
  /** This account's folder inside the library folder: '' for a service account, DEMO_AREA for the demo. */
  area: string;
}

/** Given no secrets, ever; the host's logger redacts as a second line of defence. */
export interface AccountLogger {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
}

export type SessionListener = (session: AccountSession) => void | Promise<void>;

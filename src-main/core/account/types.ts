// Types of the account layer: which service, which key, which database; shared by core and hosts.

/** Injected by the host (browser mode, the shell): starts the emulator in-process. Core never imports it. */
export interface DemoService {
  start(): Promise<{ baseUrl: string; apiKey: string }>;
  stop(): Promise<void>;
}

/** Names one account's database: the service address plus the key's fingerprint, or the demo. */
export type AccountRef = { baseUrl: string; keyFingerprint: string } | 'demo';

/** An open account: what other handlers use to reach the service and the cache. */
export interface AccountSession<Db, Client> {
  mode: 'demo' | 'service';
  db: Db;
  client: Client;
  baseUrl: string;
}

export type CurrentAccount<Db, Client> =
  AccountSession<Db, Client> | { mode: 'none'; db: null; client: null; baseUrl: null };

/** Given no secrets, ever; the host's logger redacts as a second line of defence. */
export interface AccountLogger {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
}

export type SessionListener<Db, Client> = (session: AccountSession<Db, Client>) => void | Promise<void>;

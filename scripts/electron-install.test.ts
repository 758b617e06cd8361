// The one-line cause of a failed Electron install, from what electron's install.js said and what
// the observer saw inside it; and the installer's environment (proxy passed on, one progress bar).
import { describe, expect, it } from 'vitest';
import { installerEnv, installFailureCause, type ObservedEvent } from './electron-install.ts';

const ZIP = 'https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip';
const failed = (code: string | null, message: string): ObservedEvent[] => [
  { event: 'request', url: ZIP },
  { event: 'error', url: ZIP, code, message },
];
const cause = (events: ObservedEvent[], env: NodeJS.ProcessEnv = {}, installerOutput = 'TypeError: fetch failed') =>
  installFailureCause({ events, installerOutput, env });

describe('installFailureCause', () => {
  it('says offline when the host cannot be resolved, and what would help', () => {
    expect(cause(failed('ENOTFOUND', 'getaddrinfo ENOTFOUND github.com'))).toBe(
      'cannot resolve github.com: this machine looks offline; behind a proxy set HTTPS_PROXY, or name a reachable mirror in ELECTRON_MIRROR',
    );
    expect(cause(failed('EAI_AGAIN', 'getaddrinfo EAI_AGAIN github.com'))).toMatch(/^cannot resolve github\.com/);
  });

  it('names the proxy in use when there is one', () => {
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128' };
    expect(cause(failed('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:3128'), env)).toBe(
      'github.com refused the connection through the proxy in HTTPS_PROXY',
    );
    expect(cause(failed(null, 'Proxy response (407) !== 200 when HTTP Tunneling'), env)).toBe(
      'the proxy in HTTPS_PROXY refused: Proxy response (407) !== 200 when HTTP Tunneling',
    );
  });

  it('names the mirror and its answer', () => {
    const url = 'http://mirror.corp/electron/v45.4.1/electron-v45.4.1-linux-x64.zip';
    const env = { ELECTRON_MIRROR: 'http://mirror.corp/electron/' };
    const events: ObservedEvent[] = [
      { event: 'request', url },
      { event: 'response', url, status: 403, statusText: 'Forbidden', total: null },
    ];
    expect(cause(events, env, 'HTTPError: Response code 403 (Forbidden) for ' + url)).toBe(
      'the mirror mirror.corp (ELECTRON_MIRROR) answered 403 Forbidden for electron-v45.4.1-linux-x64.zip',
    );
    expect(cause(failed('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'), { npm_config_electron_mirror: 'x' })).toBe(
      'no answer from github.com (the mirror in electron_mirror in .npmrc) (offline, or a firewall); check electron_mirror in .npmrc',
    );
  });

  it('tells a certificate problem (a TLS-inspecting proxy) and a checksum mismatch apart', () => {
    expect(cause(failed('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'))).toMatch(
      /certificate is not trusted here \(SELF_SIGNED_CERT_IN_CHAIN; .*NODE_EXTRA_CA_CERTS\)/,
    );
    expect(
      cause(
        [],
        {},
        'Error: Generated checksum for "electron-v45.4.1-linux-x64.zip" did not match expected checksum.\n    at x',
      ),
    ).toBe('the download did not match the checksum Electron publishes (a mirror or proxy altered it)');
  });

  it('falls back to the first line the installer printed, never its stack', () => {
    expect(
      cause([], {}, "Error: EACCES: permission denied, mkdir '/x/dist'\n    at Object.mkdirSync (node:fs:1)\n"),
    ).toBe("Error: EACCES: permission denied, mkdir '/x/dist'");
  });
});

describe('installerEnv', () => {
  it('turns on @electron/get proxy support when a proxy is configured, also from npm config', () => {
    expect(installerEnv({ HTTPS_PROXY: 'http://p:1' })).toMatchObject({ ELECTRON_GET_USE_PROXY: '1' });
    expect(installerEnv({ npm_config_https_proxy: 'http://p:2' })).toMatchObject({
      ELECTRON_GET_USE_PROXY: '1',
      HTTPS_PROXY: 'http://p:2',
    });
    expect(installerEnv({}).ELECTRON_GET_USE_PROXY).toBeUndefined();
  });

  it('passes on the certificate authorities npm was given, unless NODE_EXTRA_CA_CERTS says otherwise', () => {
    expect(installerEnv({ npm_config_cafile: '/etc/corp-ca.pem' }).NODE_EXTRA_CA_CERTS).toBe('/etc/corp-ca.pem');
    expect(
      installerEnv({ npm_config_cafile: '/etc/corp-ca.pem', NODE_EXTRA_CA_CERTS: '/mine.pem' }).NODE_EXTRA_CA_CERTS,
    ).toBe('/mine.pem');
  });

  it('silences the installer’s own late progress bar: ours is shown instead', () => {
    expect(installerEnv({}).ELECTRON_GET_NO_PROGRESS).toBe('1');
  });
});

// A real electron-updater AppUpdater that runs under plain Node, for the loopback feed tests.
// Everything that reads the feed is electron-updater's own: app-update.yml → GenericProvider →
// latest*.yml parsed by its js-yaml → semver comparison, staging percentage → the download with
// its sha512 check and its download cache. Only the two Electron-bound pieces are replaced: the
// app adapter (version, paths; electron-updater's constructor takes one) and the HTTP executor
// (electron.net in the app; node:http here, through builder-util-runtime's own HttpExecutor).
// Installing is recorded, never run.
import { request, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { join } from 'node:path';
// electron-updater's own HTTP layer (a pinned dependency of electron-updater, hoisted).
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import { AppUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import type { DownloadUpdateOptions } from 'electron-updater/out/AppUpdater.js';

class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }

  /** As electron-updater's ElectronHttpExecutor.download, on node:http. */
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error ? reject(error) : resolve(destination)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

export interface NodeFeedUpdaterOptions {
  /** The running app's version (what the feed's version is compared with). */
  version: string;
  /** Folder holding app-update.yml, standing in for process.resourcesPath. */
  resourcesDir: string;
  /** userData (the staging id) and the download cache live here. */
  dataDir: string;
}

export class NodeFeedUpdater extends AppUpdater {
  installs: { silent: boolean; forceRunAfter: boolean }[] = [];

  constructor(options: NodeFeedUpdaterOptions) {
    const app: AppAdapter = {
      version: options.version,
      name: 'Atelier',
      isPackaged: true,
      appUpdateConfigPath: join(options.resourcesDir, 'app-update.yml'),
      userDataPath: join(options.dataDir, 'userData'),
      baseCachePath: join(options.dataDir, 'cache'),
      whenReady: () => Promise.resolve(),
      relaunch() {},
      quit() {},
      onQuit() {},
    };
    super(null, app);
    // Set before the first check creates the provider (it takes the executor then).
    (this as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor = new NodeHttpExecutor();
  }

  /** As AppImageUpdater and the other updaters: the feed's first file, downloaded and verified. */
  protected doDownloadUpdate(downloadUpdateOptions: DownloadUpdateOptions) {
    const { provider, info } = downloadUpdateOptions.updateInfoAndProvider;
    const fileInfo = provider.resolveFiles(info)[0];
    if (!fileInfo) throw new Error('the feed lists no file');
    const executor = (this as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor;
    return this.executeDownload({
      fileExtension: 'bin',
      fileInfo,
      downloadUpdateOptions,
      task: (destination, downloadOptions) => executor.download(fileInfo.url, destination, downloadOptions),
      // As BaseUpdater: announce it (electron-updater's update-downloaded event).
      done: (event) => {
        this.dispatchUpdateDownloaded(event);
        return Promise.resolve();
      },
    });
  }

  quitAndInstall(silent = false, forceRunAfter = false): void {
    this.installs.push({ silent, forceRunAfter });
  }
}

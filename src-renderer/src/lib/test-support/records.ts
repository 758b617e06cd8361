// Whole contract records for the state modules' tests, each built in one place: a field added to
// AssetInfo, JobInfo or DownloadInfo is added here once (tsc points at it), not in every test.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import type { DownloadInfo, DownloadQueueInfo } from '@contract/ipc/library.ts';

export function assetRecord(overrides: Partial<AssetInfo> = {}): AssetInfo {
  return {
    kind: 'image',
    id: 'img_1',
    origin: 'generated',
    modelId: 'imagea',
    type: null,
    url: 'https://media.example/img_1.png',
    hls: false,
    upscaledImageId: null,
    upscaledImageUrl: null,
    sourceAssetId: null,
    folderId: null,
    publicMediaId: null,
    liked: false,
    favorite: false,
    rating: 0,
    flag: null,
    uploadName: null,
    createdAt: '2026-11-27T10:00:00.000Z',
    updatedAt: null,
    jobId: null,
    prompt: 'a heron at dawn',
    preset: null,
    paramsJson: null,
    frames: null,
    width: 1024,
    height: 1024,
    durationMs: null,
    format: 'png',
    factsFrom: 'request',
    file: { state: 'remote', path: null, thumbPath: null, localUrl: null, thumbUrl: null, bytes: null },
    removedFromService: false,
    ...overrides,
  };
}

export function jobRecord(overrides: Partial<JobInfo> = {}): JobInfo {
  return {
    localId: 1,
    jobId: 'job_1',
    kind: 'image',
    modelId: 'imagea',
    state: 'queued',
    serviceStatus: null,
    error: null,
    request: {},
    prompt: 'a heron at dawn',
    sourceImageId: null,
    createdAt: 1_000,
    submittedAt: 1_000,
    finishedAt: null,
    lastPolledAt: null,
    nextPollAt: null,
    outputs: [],
    credits: null,
    canResubmit: false,
    resubmittedAs: null,
    unattributed: false,
    mayBeFrom: [],
    possibleJobs: [],
    resendAt: null,
    canCancelResend: false,
    ...overrides,
  };
}

export function downloadRecord(overrides: Partial<DownloadInfo> = {}): DownloadInfo {
  return {
    asset: { kind: 'image', id: 'img_1' },
    mode: 'file',
    state: 'queued',
    progress: null,
    preparePercent: null,
    bytesDone: 0,
    bytesTotal: null,
    bytesPerSecond: null,
    error: null,
    attempts: 0,
    nextAttemptAt: null,
    updatedAt: '2026-11-27T10:00:00.000Z',
    ...overrides,
  };
}

export function downloadQueueRecord(overrides: Partial<DownloadQueueInfo> = {}): DownloadQueueInfo {
  return {
    state: 'running',
    pauseReason: null,
    message: null,
    concurrency: 3,
    active: 0,
    waiting: 0,
    failed: 0,
    ...overrides,
  };
}

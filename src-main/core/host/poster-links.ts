// The link a video not downloaded yet shows as its poster (AssetInfo.file.thumbUrl): not a file
// but a request to the open library, which answers with the poster taken from the video's link
// once it is made, and meanwhile with the generated one while it makes it in the background
// (library.ts `servePoster`). Asking for it is what starts the work, so only the tiles the grid
// really shows (virtualized, lazily loaded images) cost a fetch. On the ground floor, with no
// imports: handlers/to-info.ts names the link, the library answers it.

/** Never a library folder: account areas are '' and 'Demo', files live in images/, videos/, .thumbs/. */
const POSTER_LINKS = '.posters/video/';
const LINK = /^\.posters\/video\/([A-Za-z0-9_-]+)\.webp$/;

/** The library-relative link of a video's poster (the id as base64url: one safe path segment, never `..`). */
export const remotePosterLink = (videoId: string): string =>
  `${POSTER_LINKS}${Buffer.from(videoId, 'utf8').toString('base64url')}.webp`;

/** The video id a poster link names, or null for any other path. */
export function posterLinkVideoId(relativePath: string): string | null {
  const encoded = LINK.exec(relativePath)?.[1];
  if (!encoded) return null;
  const id = Buffer.from(encoded, 'base64url').toString('utf8');
  return id !== '' && remotePosterLink(id) === relativePath ? id : null;
}

/** The columns that decide it (an assets row; structural, so this file imports nothing). */
export interface PosterCandidate {
  kind: string;
  url: string | null;
  file_state: string;
  remote_state: string;
}

/**
 * A video that shows a poster link: not downloaded (its own poster comes with the file), still on
 * the service, with a link to take a frame from (until its poster is recorded as its thumbnail).
 */
export const wantsPosterLink = (row: PosterCandidate): boolean =>
  row.kind === 'video' && row.file_state !== 'downloaded' && row.url !== null && row.remote_state !== 'gone';

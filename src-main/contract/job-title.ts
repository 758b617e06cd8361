// What a job is called on every screen (Create's results, Jobs, the queue, notices, OS notifications):
// its prompt; an upscale, which has none of its own, after the image it was made from.

/** Longest prompt quoted in a title; longer ones end in "…". */
export const TITLE_PROMPT_MAX = 80;

/** One line of at most `max` characters (whitespace runs made single spaces). */
export function clipLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** "Upscale of “a heron at dawn”", or of an image whose prompt is not known. */
export function upscaleTitle(sourcePrompt: string | null | undefined): string {
  const prompt = sourcePrompt ? clipLine(sourcePrompt, TITLE_PROMPT_MAX) : '';
  return prompt ? `Upscale of “${prompt}”` : 'Upscale of an image without a prompt';
}

/**
 * A job's title: its prompt; an upscale's is its source's (`sourcePrompt`, null while unknown);
 * anything else without a prompt says so.
 */
export function jobTitle(job: { kind: string; prompt: string | null }, sourcePrompt?: string | null): string {
  if (job.kind === 'upscale') return upscaleTitle(sourcePrompt ?? job.prompt);
  return job.prompt ? job.prompt : 'No prompt';
}

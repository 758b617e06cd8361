// Prompt recall: the panel's recent prompts (from the account's own jobs, newest first, each once),
// walked with Up and Down in an empty prompt the way a shell walks its history.
import type { JobInfo, JobKindInfo } from '@contract/ipc/jobs.ts';

export function recentPrompts(jobs: readonly Pick<JobInfo, 'kind' | 'prompt'>[], kinds: JobKindInfo[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const job of jobs) {
    const prompt = job.prompt?.trim();
    if (!prompt || !kinds.includes(job.kind) || seen.has(prompt)) continue;
    seen.add(prompt);
    out.push(prompt);
  }
  return out;
}

/**
 * The prompt an arrow key recalls, or null to leave the key alone. Up starts only from an empty
 * prompt (or one recalled before); Down walks back towards the newest and then to empty.
 */
export function recallStep(
  key: string,
  current: string,
  recent: readonly string[],
  position: number,
): { prompt: string; position: number } | null {
  const recalled = position >= 0 && recent[position] === current;
  if (current !== '' && !recalled) return null;
  if (key === 'ArrowUp') {
    const next = recalled ? position + 1 : 0;
    const prompt = recent[next];
    return prompt === undefined ? null : { prompt, position: next };
  }
  if (key === 'ArrowDown' && recalled) {
    const next = position - 1;
    return { prompt: next >= 0 ? (recent[next] ?? '') : '', position: next };
  }
  return null;
}

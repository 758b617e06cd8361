// The renderer's side of the one naming service (contract/names.ts): the pure rules fed with what
// the cache knows — the account's models (their labels), the service's presets (their names) and
// the library's images (an upscale's source prompt, read once by job-sources). Every view, filter
// and toast names a model, preset, asset or job here; raw ids are for "Details" and copy-id actions.
import type { AssetInfo } from '@contract/ipc/assets.ts';
import type { JobInfo } from '@contract/ipc/jobs.ts';
import { assetTitle, familyName, isProvidedModelType, modelName, presetName, referenceName } from '@contract/names.ts';
import { jobSources } from './job-sources.svelte.ts';
import { models } from './models.svelte.ts';
import { presets } from './presets.svelte.ts';

class Names {
  readonly #models = $derived(new Map(models.items.map((m) => [m.id, m])));
  readonly #presets = $derived(new Map(presets.items.map((p) => [p.tag, p.name])));

  /** "Image C 2", a trained model's label, "Free general"; "No model" for none. */
  model(id: string | null | undefined): string {
    if (!id) return modelName(id);
    const known = this.#models.get(id);
    return known ? known.displayName : modelName(id);
  }

  /** The family group a model sits in (the model pickers and the Models list say the same). */
  family(id: string): string {
    return familyName(id, this.#models.get(id)?.modelType);
  }

  /** Whether the service provides the model to every account (free, general). */
  provided(id: string): boolean {
    return isProvidedModelType(this.#models.get(id)?.modelType);
  }

  preset(slug: string | null | undefined): string {
    return presetName(slug, (tag) => this.#presets.get(tag));
  }

  /** An asset's title; an upscale's is its source's prompt (read from the cache once). */
  asset(asset: Pick<AssetInfo, 'kind' | 'prompt' | 'origin' | 'sourceAssetId'>, source?: AssetInfo | null): string {
    const from =
      source !== undefined
        ? source
        : asset.sourceAssetId && !asset.prompt
          ? jobSources.of({ kind: 'upscale', sourceImageId: asset.sourceAssetId })
          : null;
    return assetTitle(asset, from?.prompt ?? null);
  }

  /** A job's title: its prompt, or an upscale's "Upscale of “…”". */
  job(job: Pick<JobInfo, 'kind' | 'sourceImageId' | 'prompt'>): string {
    return jobSources.title(job);
  }

  reference(url: string): string {
    return referenceName(url);
  }
}

export const names = new Names();

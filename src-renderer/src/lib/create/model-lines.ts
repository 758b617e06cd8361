// One line under the model picker saying what the chosen model is: a public model's description, a
// provided model's plain words, or a trained model's state; the raw id is left to the details.
import { providedModelDescription, publicModelWords } from '@contract/rules/index.ts';
import { models } from '../state/models.svelte.ts';

export function imageModelLine(id: string): string | undefined {
  const known = publicModelWords(id);
  if (known) return known.description;
  const model = models.items.find((m) => m.id === id);
  if (!model) return undefined;
  const provided = providedModelDescription(model.modelType);
  if (provided) return provided;
  return model.usable ? `Your ${model.modelType || 'trained'} model, trained on your photos.` : undefined;
}

// The request types are read from the rule tables: these checks run in `tsc` (a wrong type fails
// the typecheck) and the runtime half walks the same tables, so a family, setting or value the
// types do not carry cannot pass both.
import { describe, expect, it } from 'vitest';
import type { PublicImageGenerationBody } from '../service.ts';
import {
  IMAGE_OPTION_GROUPS,
  PUBLIC_IMAGE_MODELS,
  PUBLIC_IMAGE_MODEL_IDS,
  type ImageGroupOptions,
  type ImageOptionGroup,
  type PublicImageModelId,
  type PublicImageOptions,
  type SettingValue,
} from './image-models.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Equal<A, B>): Equal<A, B> => proof;

describe('option types read from the rule tables', () => {
  it('has the spec’s settings and values for each family', () => {
    same<ImageGroupOptions<'imagea'>['imageSize'], '1K' | '2K' | '4K' | undefined>(true);
    same<
      ImageGroupOptions<'imagea'>['safetyFilterLevel'],
      'OFF' | 'BLOCK_NONE' | 'BLOCK_ONLY_HIGH' | 'BLOCK_MEDIUM_AND_ABOVE' | 'BLOCK_LOW_AND_ABOVE' | undefined
    >(true);
    // imageb's sizes are every size one of its models takes (imageb 1K/2K/4K, imageb-5-lite 3K).
    same<ImageGroupOptions<'imageb'>['imageSize'], '1K' | '2K' | '3K' | '4K' | undefined>(true);
    same<ImageGroupOptions<'imageb'>['optimizeMode'], 'standard' | 'fast' | undefined>(true);
    same<ImageGroupOptions<'imagec'>['outputCompression'], number | undefined>(true);
    same<
      keyof ImageGroupOptions<'imagec'>,
      'imageSize' | 'quality' | 'background' | 'moderation' | 'outputFormat' | 'outputCompression'
    >(true);
    same<SettingValue<{ kind: 'boolean' }>, boolean>(true);
    same<SettingValue<{ kind: 'intEnum'; values: readonly [5, 10] }>, 5 | 10>(true);

    // @ts-expect-error 8K is in no imagea table
    const tooBig: ImageGroupOptions<'imagea'> = { imageSize: '8K' };
    // @ts-expect-error quality is imagec's, not imagea's
    const wrongGroup: ImageGroupOptions<'imagea'> = { quality: 'high' };
    // @ts-expect-error one option group only, the model's
    const twoGroups: PublicImageOptions = { imagea: {}, imagec: {} };
    const body: PublicImageGenerationBody = {
      modelID: 'imagec-2',
      prompt: 'p',
      aspectRatio: '21:9',
      options: { imagec: { outputFormat: 'jpeg', outputCompression: 80 } },
    };
    expect([tooBig, wrongGroup, twoGroups, body]).toHaveLength(4);
  });

  it('has one option group per family in the table, and every family has models', () => {
    // Every model's group is a listed family, and every listed family has a model (else its type is {}).
    same<(typeof PUBLIC_IMAGE_MODELS)[PublicImageModelId]['optionGroup'], ImageOptionGroup>(true);
    const groups = new Set(PUBLIC_IMAGE_MODEL_IDS.map((id) => PUBLIC_IMAGE_MODELS[id].optionGroup));
    expect([...groups].sort()).toEqual([...IMAGE_OPTION_GROUPS].sort());
  });
});

// The ordered list of schema migrations; append new versions at the end, never edit a shipped one.
import type { Migration } from '../migrate.ts';
import { migration0001 } from './0001-initial.ts';
import { migration0002 } from './0002-download-details.ts';
import { migration0003 } from './0003-job-engine.ts';
import { migration0004 } from './0004-work-claims.ts';
import { migration0005 } from './0005-favorites-collections.ts';
import { migration0006 } from './0006-job-credits.ts';
import { migration0007 } from './0007-layout-indexes.ts';
import { migration0008 } from './0008-search-prefixes.ts';
import { migration0009 } from './0009-downloads-active.ts';
import { migration0010 } from './0010-download-counts.ts';
import { migration0011 } from './0011-uploaded-kind.ts';
import { migration0012 } from './0012-job-attribution.ts';
import { migration0013 } from './0013-preset-samples.ts';
import { migration0014 } from './0014-media-facts.ts';
import { migration0015 } from './0015-ratings-flags.ts';
import { migration0016 } from './0016-trash.ts';
import { migration0017 } from './0017-batches.ts';
import { migration0018 } from './0018-asset-lineage.ts';
import { migration0019 } from './0019-experiments.ts';

export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
  migration0012,
  migration0013,
  migration0014,
  migration0015,
  migration0016,
  migration0017,
  migration0018,
  migration0019,
];

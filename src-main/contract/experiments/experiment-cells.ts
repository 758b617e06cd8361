// An experiment's plan without its estimates (pure; the core adds those): the axes and their
// values in words, and each cell's request — the base made fit for the cell's model, the cell's
// axis values set, each change a note — checked by the contract's rules. A cell still invalid is
// `refused` with the rules' words and is never sent.
import type {
  ExperimentAxisInfo,
  ExperimentCellPlanInfo,
  ExperimentNoteInfo,
  ExperimentValueInfo,
} from '../ipc/experiments.ts';
import { modelName } from '../names.ts';
import { notices, normalize, validate } from '../rules/index.ts';
import { isPublicImageModel } from '../rules/image-models.ts';
import { isTrainedModelId, notReadyProblem, unknownModelProblem } from '../rules/model-readiness.ts';
import { isVideoModel } from '../rules/video-models.ts';
import { axisInfo, expandAxes, valueInfos, type ExperimentAxis, type ExperimentNaming } from './experiment-axes.ts';
import { finishImageBody, imageBodyFor, setImageAxis } from './image-mapping.ts';
import { MappingNotes } from './mapping-notes.ts';
import { finishVideoBody, setVideoAxis, videoBodyFor } from './video-mapping.ts';

export interface ExperimentBase {
  kind: 'image' | 'video';
  body: Record<string, unknown>;
}

export type PlannedCell = Omit<ExperimentCellPlanInfo, 'estimate'>;

export interface ExperimentCells {
  axes: ExperimentAxisInfo[];
  rows: ExperimentValueInfo[];
  columns: ExperimentValueInfo[];
  /** rows × columns, row-major. */
  cells: PlannedCell[];
}

const NO_COLUMNS: ExperimentValueInfo[] = [{ value: '', label: '' }];

/** Is `modelID` a model of this kind of request (a trained model makes images)? */
const ofKind = (kind: 'image' | 'video', modelID: string): boolean =>
  kind === 'video' ? isVideoModel(modelID) : isPublicImageModel(modelID) || isTrainedModelId(modelID);

/** A trained model the account does not have, or that is not ready: the rules' refusal. */
function readinessProblem(modelID: string, naming: ExperimentNaming): string | null {
  if (!naming.modelStatus || !isTrainedModelId(modelID)) return null;
  const status = naming.modelStatus(modelID);
  if (status === undefined) return unknownModelProblem(modelID).message;
  const name = modelName(modelID, { label: naming.modelLabel?.(modelID) });
  return notReadyProblem(modelID, status, name)?.message ?? null;
}

/** One cell's request and notes (its model from the model axis, else the base's). */
export function cellRequest(
  base: ExperimentBase,
  axes: readonly ExperimentAxis[],
  values: readonly string[],
  naming: ExperimentNaming = {},
): { body: Record<string, unknown>; notes: ExperimentNoteInfo[]; refused: string | null } {
  const modelAt = axes.findIndex((axis) => axis.kind === 'model');
  const given = base.body['modelID'];
  const modelID = modelAt >= 0 ? values[modelAt]!.trim() : typeof given === 'string' ? given : '';
  const notes = new MappingNotes(modelName(modelID, { label: naming.modelLabel?.(modelID) }));
  let body: Record<string, unknown>;
  if (modelID !== '' && ofKind(base.kind, modelID)) {
    body = base.kind === 'video' ? videoBodyFor(base.body, modelID, notes) : imageBodyFor(base.body, modelID, notes);
    axes.forEach((axis, i) => {
      if (axis.kind === 'model') return;
      const set = base.kind === 'video' ? setVideoAxis : setImageAxis;
      set(body, axis.kind, axis.key ?? null, values[i]!, notes);
    });
    (base.kind === 'video' ? finishVideoBody : finishImageBody)(body, notes);
  } else {
    // Not a model of this kind: nothing to map to; the rules say what is wrong.
    body = { ...base.body, modelID };
  }
  const request = { kind: base.kind, body };
  const problems = validate(request);
  const notReady = problems.length === 0 ? readinessProblem(modelID, naming) : null;
  if (problems.length > 0 || notReady) {
    const refused = notReady ?? problems.map((p) => p.message).join('; ');
    return { body, notes: notes.list, refused };
  }
  for (const notice of notices(request)) notes.forced(notice.field, notice.message);
  return { body: normalize(request).body as Record<string, unknown>, notes: notes.list, refused: null };
}

/** The axes in words and every cell's request (row-major); throws a plain error beyond the cap. */
export function experimentCells(
  base: ExperimentBase,
  axes: readonly ExperimentAxis[],
  naming: ExperimentNaming = {},
): ExperimentCells {
  const cells = expandAxes(axes).map(({ row, column, values }) => ({
    row,
    column,
    kind: base.kind,
    ...cellRequest(base, axes, values, naming),
  }));
  return {
    axes: axes.map((axis) => axisInfo(axis, base.kind)),
    rows: valueInfos(axes[0]!, base.kind, naming),
    columns: axes[1] ? valueInfos(axes[1], base.kind, naming) : NO_COLUMNS,
    cells,
  };
}

// fast-check arbitraries read off the contract's valibot schemas (for the channel fuzz): values of
// the right shape that stay near each rule's edges, and hostile garbage of every other shape.
// Some strings must never leave this machine or this test's folder: a service address becomes
// one of `addresses`, an absolute folder path one inside `folder` (the fuzz must not write to `/x`
// or send a key to a stranger), whatever the schema would allow.
import fc from 'fast-check';

/** The parts of a valibot schema or action this walker reads. */
interface Node {
  kind?: string;
  type: string;
  pipe?: Node[];
  entries?: Record<string, Node>;
  item?: Node;
  options?: readonly unknown[];
  wrapped?: Node;
  literal?: unknown;
  requirement?: unknown;
  key?: Node;
  value?: Node;
}

export interface ArbitraryContext {
  /** Stand-ins for any service address (loopback only). */
  addresses: readonly string[];
  /** Absolute paths are generated inside this folder. */
  folder: string;
  /** Schemas recognised by identity as a service address. */
  addressSchemas: ReadonlySet<unknown>;
}

const ABSOLUTE_PATH_RULE = /^\^\(\\\/\|/;

function actions(node: Node): Node[] {
  return (node.pipe ?? []).filter((step) => step !== node && step.kind !== 'schema');
}

function requirementOf(node: Node, type: string): unknown {
  return actions(node).find((a) => a.type === type)?.requirement;
}

function stringArbitrary(node: Node, ctx: ArbitraryContext): fc.Arbitrary<string> {
  const regex = requirementOf(node, 'regex');
  if (regex instanceof RegExp && ABSOLUTE_PATH_RULE.test(regex.source)) {
    return fc
      .stringMatching(/^[A-Za-z0-9 ._-]{1,12}$/)
      .map((name) => `${ctx.folder}/${name}`)
      .chain((path) => fc.constantFrom(path, `${path}/..`, `${ctx.folder}/../${path.slice(-6)}`));
  }
  const max = Number(requirementOf(node, 'max_length') ?? 64);
  const min = Number(requirementOf(node, 'min_length') ?? 0);
  const plain = fc.string({ minLength: min, maxLength: Math.min(max, 64) });
  // fast-check generates from flag-less patterns only; without `i` it still makes matching text.
  if (regex instanceof RegExp) return fc.oneof(fc.stringMatching(new RegExp(regex.source)), plain);
  return fc.oneof(plain, fc.constantFrom('', ' ', 'x'.repeat(Math.min(max, 10_000)), 'x'.repeat(max + 1)));
}

function numberArbitrary(node: Node): fc.Arbitrary<number> {
  const min = requirementOf(node, 'min_value') as number | undefined;
  const max = requirementOf(node, 'max_value') as number | undefined;
  const integer = actions(node).some((a) => a.type === 'integer');
  const edges = fc.constantFrom(...[min, max, (min ?? 0) - 1, (max ?? 0) + 1, 0, -1].filter((n) => n !== undefined));
  const inRange = integer
    ? fc.integer({ min: Math.max(min ?? -1000, -1e9), max: Math.min(max ?? 1000, 1e9) })
    : fc.double({ min: min ?? -1000, max: max ?? 1000, noNaN: true });
  return fc.oneof(inRange, edges);
}

/** Values of the schema's shape (not always valid: each rule's edges are tried on both sides). */
export function arbitraryFor(node: Node, ctx: ArbitraryContext, depth = 0): fc.Arbitrary<unknown> {
  if (ctx.addressSchemas.has(node)) return fc.constantFrom(...ctx.addresses);
  if (depth > 6) return fc.constant(undefined);
  const next = (child: Node) => arbitraryFor(child, ctx, depth + 1);
  switch (node.type) {
    case 'string':
      return stringArbitrary(node, ctx);
    case 'number':
      return numberArbitrary(node);
    case 'boolean':
      return fc.boolean();
    case 'undefined':
      return fc.constant(undefined);
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constant(node.literal);
    case 'picklist':
      return fc.constantFrom(...(node.options as unknown[]));
    case 'optional':
      return fc.option(next(node.wrapped as Node), { nil: undefined });
    case 'nullable':
      return fc.option(next(node.wrapped as Node), { nil: null });
    case 'never':
      return fc.anything();
    case 'array': {
      const max = Number(requirementOf(node, 'max_length') ?? 4);
      return fc.array(next(node.item as Node), { maxLength: Math.min(max, 4) });
    }
    case 'union':
    case 'variant':
      return fc.oneof(...(node.options as Node[]).map(next));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), next(node.value as Node), { maxKeys: 3 });
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      const entries = Object.entries(node.entries ?? {});
      const model = Object.fromEntries(entries.map(([key, child]) => [key, next(child)]));
      return fc.record(model, { requiredKeys: entries.filter(([, c]) => c.type !== 'optional').map(([k]) => k) });
    }
    default:
      return fc.anything();
  }
}

/** A chain of nested arrays deeper than any parser should have to follow. */
const deeplyNested = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
};

/** Anything a hostile renderer could send: wrong types, huge and odd strings, pollution keys, depth. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ maxDepth: 3, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true }),
  fc.constantFrom<unknown>(
    undefined,
    null,
    NaN,
    Infinity,
    -0,
    '',
    'x'.repeat(2 * 1024 * 1024),
    '\u0000\uD800\uFFFF',
    [],
    {},
    JSON.parse('{"__proto__": {"polluted": true}}'),
    JSON.parse('{"constructor": {"prototype": {"polluted": true}}}'),
    { toString: 'not a function', valueOf: 1 },
    deeplyNested(5_000),
    Object.create(null),
  ),
);

/** The schema's own shape with one field swapped for hostile garbage (or extra pollution keys). */
export function poisoned(node: Node, ctx: ArbitraryContext): fc.Arbitrary<unknown> {
  const base = arbitraryFor(node, ctx);
  return fc.tuple(base, hostileValue, fc.string({ maxLength: 12 })).map(([value, garbage, name]) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return garbage;
    const keys = Object.keys(value);
    const target = keys.length > 0 ? keys[name.length % keys.length]! : '__proto__';
    const copy: Record<string, unknown> = JSON.parse(JSON.stringify(value, (_k, v: unknown) => v ?? null));
    Object.defineProperty(copy, target, { value: garbage, enumerable: true, configurable: true, writable: true });
    return copy;
  });
}

#!/usr/bin/env node
// `npm run gen`: writes web/bridge/components.generated.ts from the component schema that
// the core declares (lb_field: name, type, default, range, doc, flags), read from the built
// limber.wasm the way the bridge reads it at start-up. One definition per component (the C
// schema) gives the TypeScript interfaces and handles; nothing here lists a field.
//
// As a module, `generateComponents(schema)` returns the file's text (pure and
// deterministic: schema order, no dates), and `readComponentSchema()` loads the schema from
// the build (first: node scripts/build.mjs --quiet wasm ts). Run directly, it builds what
// is missing or stale, then writes the file (only when its text changes).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT = join(root, 'web/bridge/components.generated.ts');
const DIST = join(root, 'dist/web/bridge');

/** lb_field_type (web/bridge/schema.ts FieldType; const enums do not exist at run time). */
const T = { F32: 0, U32: 1, Bool: 2, Entity: 3, Vec3: 4, Quat: 5, String: 6, Enum: 7, Asset: 8, Name: 9 };

/** The schema as the bridge reads it at start-up (readSchema: ComponentInfo[]), plus each
 * component's defaults decoded by the bridge's own decoder. `wasm`: the module to read
 * (default: the one in dist/ that the bridge and the Node tests load). Uses only the
 * bridge's wasm and schema modules, which do not depend on the generated file. */
export async function readComponentSchema({ wasm = join(DIST, 'limber.wasm') } = {}) {
  for (const f of [join(DIST, 'wasm.js'), join(DIST, 'schema.js'), wasm]) {
    if (!existsSync(f)) throw new Error(`gen-components: ${relative(root, f)} is missing: run \`node scripts/build.mjs --quiet wasm ts\` (or \`npm run gen\`)`);
  }
  const { Heap, instantiateLimber } = await import(pathToFileURL(join(DIST, 'wasm.js')).href);
  const { decodeComponent, readSchema } = await import(pathToFileURL(join(DIST, 'schema.js')).href);
  const heap = new Heap(await instantiateLimber(readFileSync(wasm)));
  return readSchema(heap).map((c) => ({ ...c, defaultValues: decodeComponent(c, c.defaults) }));
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const quote = (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
/** Comment text that cannot close the comment early. */
const commentText = (s) => s.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ').trim();

/** The shortest decimal that reads back as the same float32 (0.02, not 0.0199999995...);
 * exponent form for very large or small magnitudes. */
export function formatF32(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  let v = x;
  for (let p = 1; p <= 9; p++) {
    const c = Number(x.toPrecision(p));
    if (Math.fround(c) === x) {
      v = c;
      break;
    }
  }
  const a = Math.abs(v);
  return a >= 1e5 || a < 1e-3 ? v.toExponential().replace('e+', 'e') : String(v);
}

/** Which kind of asset an Asset field names, as its branded handle type (web/bridge/components.ts).
 * The schema says only "an asset handle", so the fields are listed here by component and name;
 * an Asset field missing from this table is typed a plain number. */
export const ASSET_BRANDS = Object.freeze({
  'Rig.asset': 'RigHandle',
  'Animator.controller': 'ControllerHandle',
  'Collider.mesh': 'MeshHandle',
  'NavAgent.navMesh': 'NavMeshHandle',
});

function tsType(c, f) {
  switch (f.type) {
    case T.Asset: return ASSET_BRANDS[`${c.name}.${f.name}`] ?? 'number';
    case T.F32: case T.U32: return 'number';
    case T.Bool: return 'boolean';
    case T.Entity: return 'Entity';
    case T.Vec3: return 'Vec3';
    case T.Quat: return 'Quat';
    case T.String: case T.Name: return 'string';
    case T.Enum:
      if (f.enumNames.length === 0) throw new Error(`gen-components: ${c.name}.${f.name} is an Enum without names`);
      return f.enumNames.map(quote).join(' | ');
    default:
      throw new Error(`gen-components: ${c.name}.${f.name} has field type ${f.type}, which scripts/gen-components.mjs does not know: map it to a TypeScript type there`);
  }
}

/** What the doc comment adds to the schema's text: the range (as "; range ...") and the
 * default (as @default), where they mean something for the field's type. */
function facts(c, f) {
  if (f.readonly) return { range: '', def: null };
  const d = c.defaultValues[f.name];
  const num = (x) => (f.type === T.F32 || f.type === T.Vec3 ? formatF32(x) : String(x));
  const ranged = f.min < f.max;
  const range = ranged ? `[${num(f.min)}, ${num(f.max)}]` : '';
  const inRange = (x) => !ranged || (x >= f.min && x <= f.max);
  switch (f.type) {
    case T.F32: case T.U32:
      return inRange(d) ? { range: range && `range ${range}`, def: num(d) } : { range: `required; range ${range}`, def: null };
    case T.Asset:
      return inRange(d) ? { range: '', def: String(d) } : { range: 'required', def: null };
    case T.Vec3:
      return d.every(inRange) ? { range: range && `each in ${range}`, def: `[${d.map(num).join(', ')}]` } : { range: `required; each in ${range}`, def: null };
    case T.Quat:
      return { range: '', def: `[${d.map(formatF32).join(', ')}]` };
    case T.Bool:
      return { range: '', def: String(d) };
    case T.Entity:
      return { range: '', def: d === 0 ? '0 (null)' : String(d) };
    case T.Enum:
      return { range: '', def: quote(d) };
    case T.String:
      return { range: `at most ${f.size - 1} bytes (UTF-8)`, def: quote(f.defaultString) };
    case T.Name: // an interned id in the core: no byte limit to state
      return { range: '', def: quote(f.defaultString) };
    default:
      return { range: '', def: null };
  }
}

function fieldLines(c, f) {
  if (!IDENT.test(f.name)) throw new Error(`gen-components: ${c.name} has a field named ${JSON.stringify(f.name)}, which is not an identifier`);
  const { range, def } = facts(c, f);
  const text = [commentText(f.doc), range].filter(Boolean).join('; ');
  const decl = `  ${f.readonly ? 'readonly ' : ''}${f.name}: ${tsType(c, f)};`;
  if (def === null) return text ? [`  /** ${text} */`, decl] : [decl];
  return ['  /**', ...(text ? [`   * ${text}`] : []), `   * @default ${commentText(def)}`, '   */', decl];
}

/** The text of components.generated.ts for a schema (ComponentInfo[] with defaultValues). */
export function generateComponents(schema) {
  const body = [];
  const used = new Set();
  const names = new Set();
  for (const c of schema) {
    if (!IDENT.test(c.name)) throw new Error(`gen-components: component name ${JSON.stringify(c.name)} is not an identifier`);
    if (names.has(c.name)) throw new Error(`gen-components: two components are named ${c.name}`);
    names.add(c.name);
    body.push('', `/** Fields of the ${c.name} component, as the core's schema declares them. */`, `export interface ${c.name}Data {`);
    for (const f of c.fields) {
      body.push(...fieldLines(c, f));
      used.add(tsType(c, f));
    }
    body.push('}', '', `/** The ${c.name} component: world.insert / get / update / remove / has. */`);
    body.push(`export const ${c.name} = component<${c.name}Data>(${quote(c.name)});`);
  }
  // Only the types in use, so noUnusedLocals holds for any schema.
  const types = ['ClipHandle', 'ControllerHandle', 'Entity', 'MeshHandle', 'NavMeshHandle', 'Quat', 'RigHandle', 'Vec3'].filter((t) => used.has(t)).map((t) => `type ${t}`);
  const header = [
    '// Generated by `npm run gen` (scripts/gen-components.mjs) from the component schema the core',
    '// declares in C. Do not edit: change the schema, rebuild, and run `npm run gen`;',
    '// tests/node/components-generated.test.mjs fails while this file is out of date.',
    `import { ${['component', ...types].join(', ')} } from './components.js';`,
  ];
  return `${[...header, ...body].join('\n')}\n`;
}

async function main() {
  const build = (target) => spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet', target], { cwd: root, stdio: 'inherit' }).status === 0;
  if (!build('wasm')) process.exit(1);
  // tsc still writes the JavaScript when the types fail to check (e.g. the generated file
  // is missing or out of date), and the generator only needs the bridge's schema reader.
  if (!build('ts')) {
    if (!existsSync(join(DIST, 'schema.js'))) process.exit(1);
    console.error('gen-components: the TypeScript build reported errors (above); generating from the JavaScript it wrote');
  }
  const text = generateComponents(await readComponentSchema({ wasm: join(root, 'build/wasm/limber.wasm') }));
  const before = existsSync(OUTPUT) ? readFileSync(OUTPUT, 'utf8') : null;
  if (before === text) {
    console.log(`${relative(root, OUTPUT)} is up to date`);
    return;
  }
  writeFileSync(OUTPUT, text);
  console.log(`wrote ${relative(root, OUTPUT)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err.message ?? err);
    process.exit(1);
  });
}

#!/usr/bin/env node
// Bundle one app (run from its folder by its `build` script, after tsc has
// written the declarations): src/bin.ts and src/main.ts become dist/bin.js and
// dist/main.js, minified ESM for Node 20, with every workspace library and
// third-party dependency inlined. Sub-commands are imported lazily by the
// programs, so each becomes its own chunk beside them (dist/*-<hash>.js) and a
// call loads only what its sub-command uses. The published bin therefore has
// no runtime dependency tree. Licences of the inlined packages are collected
// into dist/THIRD-PARTY-LICENSES.md. See docs/release.md "Bundled bins".
import { build } from 'esbuild';
import { generateDtsBundle } from 'dts-bundle-generator';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const app = process.cwd();
const dist = join(app, 'dist');
const repoRoot = join(app, '..', '..');

/** Remove every .js under dist (tsc now writes declarations only; chunk names change with their content). */
function cleanJs(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) cleanJs(p);
    else if (name.endsWith('.js')) rmSync(p);
  }
}
cleanJs(dist);
rmSync(join(dist, 'help.json'), { force: true });

/**
 * commander requires node:child_process at load, for executable sub-commands
 * (none here); loading that built-in cost ~6.6 ms CPU of every real command.
 * commander gets a stand-in that loads it on first use instead.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander/') ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

/**
 * jsonc-parser's `main` is a UMD build whose requires the bundler cannot see
 * (`Cannot find module './impl/format'` at run time): bundle its ESM build,
 * keeping the default import Node gives a CommonJS package.
 */
const jsoncParserEsm = {
  name: 'jsonc-parser-esm',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, async (args) => {
      if (args.namespace === 'jsonc-esm') return undefined;
      const main = await b.resolve('jsonc-parser', { resolveDir: args.resolveDir, kind: args.kind, namespace: 'jsonc-esm' });
      return { path: join(dirname(main.path), '..', 'esm', 'main.js'), namespace: 'jsonc-esm' };
    });
    b.onLoad({ filter: /.*/, namespace: 'jsonc-esm' }, (args) => ({
      contents: `import * as m from ${JSON.stringify(args.path)}; export * from ${JSON.stringify(args.path)}; export default m;`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/** True when `file` is CommonJS by Node's rules: `.cjs`, or `.js` whose nearest package.json is not `"type": "module"`. */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

/**
 * A lazy `import()` of a CommonJS package (yaml's Node build) becomes a chunk
 * whose only export is `default`, while Node run from the sources also gives
 * the package's named exports — so `const { parse } = await import('yaml')`
 * worked in tests and read `undefined` in the bin (issue #24 item 5). The
 * chunk gets a wrapper that re-exports, by name, every key the package's
 * exports object has (read here by requiring it, as Node's own CommonJS
 * named-export detection would find them), plus `default`.
 */
const namedExportsOfLazyCommonJs = {
  name: 'named-exports-of-lazy-commonjs',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.namespace === 'lazy-cjs' || args.path.startsWith('node:')) return undefined;
      const target = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, namespace: 'lazy-cjs' });
      if (target.errors.length > 0 || !target.path.includes('node_modules') || !isCommonJs(target.path)) return undefined;
      return { path: target.path, namespace: 'lazy-cjs' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-cjs' }, (args) => {
      const names = Object.keys(createRequire(args.path)(args.path)).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k));
      const from = JSON.stringify(args.path);
      return {
        contents: `import m from ${from}; export default m; export const { ${names.join(', ')} } = m;`,
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

/**
 * Entries started by URL beside the chunk that starts them (`new URL('./<name>.js',
 * import.meta.url)`), per app, each bundled as dist/<name>.js: libs/audit-rules
 * audits a large project in worker threads.
 */
const EXTRA_ENTRIES = {
  'okstra-run-audit': { 'audit-worker': '../../libs/audit-rules/src/parallel/audit-worker.ts' },
};
const appName = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).name;

const common = {
  absWorkingDir: app,
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  // Workspace libraries resolve to their TypeScript sources, as in tests.
  conditions: ['@okstra/source'],
  legalComments: 'none',
  plugins: [jsoncParserEsm, lazyChildProcessForCommander, namedExportsOfLazyCommonJs],
  metafile: true,
  logLevel: 'warning',
  write: true,
};
const result = await build({
  ...common,
  entryPoints: { bin: 'src/bin.ts', main: 'src/main.ts', ...EXTRA_ENTRIES[appName] },
  splitting: true,
  // Chunks sit beside bin.js so `import.meta.url`-relative paths (../package.json, ./bin.js) hold in every file.
  chunkNames: '[name]-[hash]',
});

/** The package folder (holding package.json with a name) of a bundled input under node_modules, or null. */
function packageOf(input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0 || /^[a-z-]+:/.test(input)) return null;
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return join(app, input.slice(0, at), 'node_modules', name);
}

const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const dir = packageOf(input);
  if (!dir || packages.has(dir)) continue;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  packages.set(dir, {
    name: manifest.name,
    version: manifest.version,
    license: manifest.license,
    text: licenceFile ? readFileSync(join(dir, licenceFile), 'utf8').trim() : null,
  });
}
const sections = [...packages.values()]
  .sort((a, b) => (a.name < b.name ? -1 : 1))
  .map((p) => `## ${p.name}@${p.version} (${p.license ?? 'see package'})\n\n${p.text ?? 'No licence file shipped with the package.'}\n`);
writeFileSync(
  join(dist, 'THIRD-PARTY-LICENSES.md'),
  `# Third-party code bundled into ${JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).name}\n\n${sections.join('\n')}`,
);

if (process.env.OKSTRA_BUNDLE_META) writeFileSync(process.env.OKSTRA_BUNDLE_META, JSON.stringify(result.metafile));
const files = readdirSync(dist).filter((f) => f.endsWith('.js'));

/**
 * An ESM `import … from "node:fs"` makes Node build the built-in's ESM facade,
 * which reads every export — fs's lazy `ReadStream`/`promises` getters load the
 * streams modules — ~3 ms of CPU before a command starts (issue #24 item 6:
 * run-audit on the sample). `process.getBuiltinModule` (Node ≥ 20.16; engines
 * ≥ 20.17) returns the CommonJS exports object without a facade. Every static
 * import of a `node:` built-in in the minified output becomes a `const` of it;
 * a built-in's default import is that same exports object.
 */
function builtinImportsToConst(text, file) {
  const get = (spec) => `process.getBuiltinModule(${JSON.stringify(spec)})`;
  // Statement-level imports only (after a statement's end, or at the start); esbuild puts a module's imports where its code starts.
  const at = '(?<=^|[;}\\n])';
  let n = 0;
  const out = text
    .replace(new RegExp(`${at}import\\{([^}]*)\\}from"(node:[a-z0-9_/]+)";?`, 'g'), (_, names, spec) => {
      n++;
      return `const{${names.replace(/([\w$]+) as ([\w$]+)/g, '$1:$2')}}=${get(spec)};`;
    })
    .replace(new RegExp(`${at}import ?(?:\\* ?as )?([\\w$]+) ?from"(node:[a-z0-9_/]+)";?`, 'g'), (_, name, spec) => (n++, `const ${name}=${get(spec)};`))
    .replace(new RegExp(`${at}import"(node:[a-z0-9_/]+)";?`, 'g'), (_, spec) => (n++, `${get(spec)};`));
  // Every static import of a built-in esbuild reports must have been rewritten, and nothing else.
  const expected = (result.metafile.outputs[`dist/${file}`]?.imports ?? []).filter(
    (i) => i.external && i.kind === 'import-statement' && i.path.startsWith('node:'),
  ).length;
  if (n !== expected) throw new Error(`dist/${file}: rewrote ${n} built-in imports, esbuild reports ${expected}`);
  return out;
}
// CommonJS dependencies (commander) call require() for Node built-ins through
// esbuild's shim, which needs a `require` in scope. Only the chunks that use it
// get one: a createRequire in every chunk showed in the start-up profile.
const REQUIRE_BANNER = 'const require=process.getBuiltinModule("node:module").createRequire(import.meta.url);';
for (const f of files) {
  const text = builtinImportsToConst(readFileSync(join(dist, f), 'utf8'), f);
  // A require of a relative path left in the output is a module the bundler could not see: it fails at run time.
  const hit = /require\(["'`]\.{1,2}\/[^"'`]*["'`]\)/.exec(text);
  if (hit) throw new Error(`${relative(repoRoot, join(dist, f))}: the bundle still requires ${hit[0]}; bundle that package's ESM build (see jsoncParserEsm)`);
  if (!/typeof require\b/.test(text)) {
    writeFileSync(join(dist, f), text);
    continue;
  }
  const shebang = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') + 1) : '';
  writeFileSync(join(dist, f), shebang + REQUIRE_BANNER + text.slice(shebang.length));
}
const bytes = files.reduce((n, f) => n + statSync(join(dist, f)).size, 0);
process.stdout.write(`${relative(repoRoot, app)}: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB (${packages.size} third-party packages inlined)\n`);

/**
 * The help cache (libs/cli-kit `cachedHelp`): the built bin itself renders
 * `[<command>…] --help` for every command of its tree, with stdout a pipe
 * (80 columns, no colour) and no cache present, so the texts are exactly what
 * commander prints to a pipe. A bin whose main does not go through runToolMain
 * (the umbrella answers its own help without a parser) gets none.
 */
function writeHelpCache() {
  if (!readFileSync(join(app, 'src', 'main.ts'), 'utf8').includes('runToolMain')) return 0;
  const texts = {};
  const queue = [[]];
  while (queue.length > 0) {
    const path = queue.shift();
    const r = spawnSync(process.execPath, [join(dist, 'bin.js'), ...path, '--help'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    if (r.status !== 0) throw new Error(`${relative(repoRoot, app)}: ${[...path, '--help'].join(' ')} exited ${r.status}: ${r.stderr}`);
    texts[path.join(' ')] = r.stdout;
    const section = r.stdout.split(/\n(?=\S)/).find((s) => s.startsWith('Commands:')) ?? '';
    for (const m of section.matchAll(/^ {2}([a-z][a-z0-9-]*)/gm)) if (m[1] !== 'help') queue.push([...path, m[1]]);
  }
  writeFileSync(join(dist, 'help.json'), JSON.stringify({ schemaVersion: '1.0', texts }, null, 1) + '\n');
  return Object.keys(texts).length;
}
/**
 * dist/main.d.ts with the workspace libraries' types inlined: the package
 * ships its libraries bundled, not as dependencies, so a TypeScript consumer
 * could not resolve a `from '@okstra/cli-kit'` left in its declarations.
 * Node's own types stay imports (a consumer has @types/node).
 */
function bundleDeclarations() {
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  const workspace = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((d) => d.startsWith('@okstra/'));
  const [text] = generateDtsBundle(
    [{ filePath: join(app, 'src', 'main.ts'), libraries: { inlinedLibraries: [...workspace, '@okstra/core'] }, output: { noBanner: true } }],
    { preferredConfigPath: join(app, 'tsconfig.lib.json') },
  );
  writeFileSync(join(dist, 'main.d.ts'), text);
}
bundleDeclarations();

const helpTexts = writeHelpCache();
if (helpTexts > 0) process.stdout.write(`${relative(repoRoot, app)}: help cache of ${helpTexts} command${helpTexts === 1 ? '' : 's'}\n`);

// Builds the watch page: protobuf static code generated from proto/xiangqi.proto, a strict type
// check, then esbuild into OUT/dist (hashed asset names, an index.html naming them) and the tests
// into OUT/test. Usage: node build.mjs OUT. Runs on Node 18 (a fresh Debian 12's), so no newer API.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const web = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) throw new Error('usage: node build.mjs OUT_DIR');
const modules = join(web, 'node_modules');
let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.error(`build.mjs: no esbuild in ${modules}: run "./xq build" (it runs npm ci there)`);
  process.exit(2);
}

// Runs a tool of node_modules; its own output says what failed, so a failure just stops the build.
const node = (script, args) => {
  try {
    execFileSync(process.execPath, [join(modules, script), ...args], { stdio: 'inherit' });
  } catch {
    console.error(`build.mjs: ${script} failed`);
    process.exit(1);
  }
};

// 1. The messages, generated each build from the one schema into the build folder (two build
// folders never share it): the page cannot drift from the server. Numbers for 64-bit fields (ids,
// versions, milliseconds all fit in 2^53); no verify/convert code the page never calls, which keeps
// the bundle small. The page imports them as 'xq-proto-gen', mapped here for tsc and esbuild alike.
const gen = join(out, 'gen');
mkdirSync(gen, { recursive: true });
const generated = join(gen, 'xiangqi.js');
node('protobufjs-cli/bin/pbjs', ['-t', 'static-module', '-w', 'es6', '--force-number', '--no-verify', '--no-convert',
  '--no-delimited', '--no-typeurl', '-o', generated, join(web, '..', 'proto', 'xiangqi.proto')]);
node('protobufjs-cli/bin/pbts', ['-o', join(gen, 'xiangqi.d.ts'), generated]);
const alias = { 'xq-proto-gen': generated };

// 2. Types: esbuild strips them without checking, so tsc checks first (strict, see tsconfig.json),
// with the generated module's place added.
const tsconfig = join(out, 'tsconfig.json');
writeFileSync(tsconfig, JSON.stringify({
  extends: join(web, 'tsconfig.json'),
  // The generated files live outside web/, so their own imports are resolved in web/node_modules.
  compilerOptions: { paths: { 'xq-proto-gen': [join(gen, 'xiangqi')], 'protobufjs': [join(modules, 'protobufjs')],
    'protobufjs/*': [join(modules, 'protobufjs', '*')] }, typeRoots: [join(modules, '@types')] },
  include: [join(web, 'src'), join(web, 'test'), join(gen, 'xiangqi.d.ts')],
}, null, 2));
node('typescript/bin/tsc', ['-p', tsconfig]);

// 3. The page. Hashed names let the server cache assets forever; index.html is the only fixed name.
const dist = join(out, 'dist');
rmSync(dist, { recursive: true, force: true });
const page = await esbuild.build({
  absWorkingDir: web,
  entryPoints: { main: 'src/main.ts', style: 'src/style.css' },
  bundle: true, minify: true, sourcemap: false, format: 'esm', target: ['es2020'],
  outdir: join(dist, 'assets'), entryNames: '[name]-[hash]', metafile: true, legalComments: 'none',
  alias, nodePaths: [modules],
  // protobufjs looks for long.js inside a try: left out, 64-bit fields decode to plain numbers, as
  // the page wants (src/protobuf-numbers.ts), and the bundle is 11 KB smaller.
  external: ['long'],
  logLevel: 'warning',
});
const asset = (suffix) => {
  const file = Object.keys(page.metafile.outputs).find((f) => f.endsWith(suffix));
  return '/assets/' + relative(join(dist, 'assets'), join(web, file));
};
const html = readFileSync(join(web, 'src', 'index.html'), 'utf8')
  .replace('%SCRIPT%', asset('.js')).replace('%STYLE%', asset('.css'));
writeFileSync(join(dist, 'index.html'), html);
// BSD-3-Clause asks binary copies to carry the notice: the page's one third-party runtime's licence
// is served beside the bundle.
writeFileSync(join(dist, 'assets', 'third-party-licenses.txt'),
  'protobufjs (BSD-3-Clause), in main-*.js:\n\n' + readFileSync(join(modules, 'protobufjs', 'LICENSE'), 'utf8'));

// 4. The tests, bundled for Node (CommonJS, so NODE_PATH finds puppeteer-core in web/node_modules).
const testDir = join(out, 'test');
rmSync(testDir, { recursive: true, force: true });
const tests = readdirSync(join(web, 'test')).filter((f) => f.endsWith('.test.ts'));
await esbuild.build({
  absWorkingDir: web, entryPoints: tests.map((f) => join('test', f)), bundle: true, platform: 'node',
  format: 'cjs', target: ['node18'], outdir: testDir, outExtension: { '.js': '.cjs' },
  external: ['puppeteer-core'], alias, nodePaths: [modules], logLevel: 'warning',
});

for (const f of readdirSync(join(dist, 'assets'))) {
  const bytes = readFileSync(join(dist, 'assets', f));
  console.log(`web: ${f} ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
}

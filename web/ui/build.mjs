// Builds the UI's files: esbuild bundles and minifies src/main.js (and the
// CSS it imports, uPlot's included) into static/main-<hash>.js and
// static/main-<hash>.css, and writes index.html pointing at them. Output is
// deterministic: the same sources give the same bytes (so ccache hits on the
// embedded C++ source).
//   node build.mjs <node_modules dir> <output dir>
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [nodeModules, outDir] = process.argv.slice(2);
if (!nodeModules || !outDir) {
  console.error('usage: node build.mjs <node_modules dir> <output dir>');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const esbuild = createRequire(path.join(path.resolve(nodeModules), 'noop.js'))('esbuild');

fs.rmSync(outDir, { recursive: true, force: true });
const staticDir = path.join(outDir, 'static');
const result = await esbuild.build({
  entryPoints: [path.join(here, 'src/main.js')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  outdir: staticDir,
  nodePaths: [path.resolve(nodeModules)],
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: here,
});

const outputs = Object.keys(result.metafile.outputs).map((p) => path.basename(p));
const js = outputs.find((f) => f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
if (!js || !css) {
  console.error(`build.mjs: expected a .js and a .css output, got ${outputs.join(', ')}`);
  process.exit(1);
}
const html = fs.readFileSync(path.join(here, 'src/index.html'), 'utf8')
  .replace('%APP_JS%', `/static/${js}`)
  .replace('%APP_CSS%', `/static/${css}`);
fs.writeFileSync(path.join(outDir, 'index.html'), html);
console.log(`web/ui: built ${js}, ${css}`);

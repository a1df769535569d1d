// Writes NAME.br and NAME.gz beside each file of the built site (dist/) that compression
// shrinks, for a static server that sends them as they are (Content-Encoding: br or gzip)
// instead of compressing on every request. Node's own zlib: no dependency.
//   node scripts/serve/precompress.mjs dist
//   BROTLI_QUALITY  1-11 (default 11, the smallest files: about 35 s for the 10 MB worker on
//                   a busy 2-core machine; the browser tests use 5, about 1 s, 20% larger)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const root = process.argv[2] ?? "dist";
const quality = Number(process.env.BROTLI_QUALITY ?? zlib.constants.BROTLI_MAX_QUALITY);
const skip = /\.(br|gz|png|jpg|jpeg|gif|webp|woff2?)$/;
let raw = 0;
let br = 0;
let gz = 0;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (entry.isFile() && !skip.test(entry.name)) compress(file);
  }
}

function compress(file) {
  const data = fs.readFileSync(file);
  const brotli = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gzip = zlib.gzipSync(data, { level: 9 });
  raw += data.length;
  // A compressed copy that is not smaller is not worth sending.
  for (const [ext, bytes] of [[".br", brotli], [".gz", gzip]]) {
    if (bytes.length < data.length) fs.writeFileSync(file + ext, bytes);
    else fs.rmSync(file + ext, { force: true });
  }
  br += Math.min(brotli.length, data.length);
  gz += Math.min(gzip.length, data.length);
}

walk(root);
const mb = (n) => (n / 1e6).toFixed(2) + " MB";
console.log(`precompressed ${root} (brotli quality ${quality}): ${mb(raw)} raw, ${mb(gz)} gzip, ${mb(br)} brotli`);

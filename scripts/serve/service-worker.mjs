// Names the service worker's build (www/sw.js, copied into the built site by Trunk): writes
// into DIR/sw.js the build's name, a hash of every file of the site, and the list of those
// files, which the worker keeps in a cache of that name. Any changed file gives a new name,
// so the browser sees a new sw.js and installs the new build beside the old one.
// scripts/build-site.sh runs it after `trunk build`, before precompressing.
//   node scripts/serve/service-worker.mjs DIR
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = process.argv[2] ?? "dist";
const worker = path.join(root, "sw.js");
// The compressed copies are the same files (the server picks one); the worker itself is
// not cached by itself.
const skip = (name) => /\.(br|gz)$/.test(name) || name === "sw.js";

function walk(dir, found = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file, found);
    else if (entry.isFile() && !skip(path.relative(root, file))) found.push(file);
  }
  return found;
}

const files = walk(root)
  .map((f) => path.relative(root, f).split(path.sep).join("/"))
  .sort();
const hash = crypto.createHash("sha256");
for (const name of files) {
  hash.update(name + "\0");
  hash.update(fs.readFileSync(path.join(root, name)));
}
const build = hash.digest("hex").slice(0, 16);
const source = fs.readFileSync(worker, "utf8");
const named = source
  .replace(/^const BUILD = .*;$/m, `const BUILD = ${JSON.stringify(build)};`)
  .replace(/^const FILES = .*;$/m, `const FILES = ${JSON.stringify(files.map((f) => "./" + f))};`);
if (named === source || !named.includes(build)) {
  console.error(`error: ${worker} has no BUILD and FILES lines to fill in`);
  process.exit(1);
}
fs.writeFileSync(worker, named);
console.log(`service worker: build ${build}, ${files.length} files`);

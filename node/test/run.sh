#!/usr/bin/env bash
# The Node package's tests, run as a user gets the package: `npm install node/` into a new
# project (its install script builds the addon with cargo, a debug build here), then, in that
# project,
#   - node:test over test/*.test.mjs, importing "citestore" by name (ES module and CommonJS);
#   - tsc --strict --noEmit over test/*.test-d.mts and *.test-d.cts against the installed types
#     (each @ts-expect-error line must be an error).
# Before that, the addon is built once with napi-rs's CLI to regenerate its types, and the
# checked-in native.d.ts must match them.
#
# Needs node 20+, npm, cargo and PostgreSQL (a server in CITESTORE_TEST_PG, or pg_ctl to start
# one with tests/pg-cluster.sh); the dev tools (typescript, @napi-rs/cli) are installed into
# node/node_modules from package-lock.json when missing. With CI=true a missing tool fails the
# run; without it, the run says what is missing and stops (exit 0).
set -euo pipefail

node_dir=$(cd "$(dirname "$0")/.." && pwd)

missing() {
  if [ "${CI:-}" = "true" ]; then
    echo "node/test/run.sh: FAIL: $1" >&2
    exit 1
  fi
  echo "node/test/run.sh: skipped: $1 (set CI=true to fail instead)" >&2
  exit 0
}

command -v node >/dev/null || missing "node is not on PATH (Node.js 20 or later)"
command -v npm >/dev/null || missing "npm is not on PATH"
command -v "${CARGO:-cargo}" >/dev/null || missing "cargo is not on PATH (Rust 1.85 or later builds the addon)"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  missing "node $(node --version) is older than 20"

# The dev tools, as package-lock.json pins them.
if [ ! -x "$node_dir/node_modules/.bin/tsc" ] || [ ! -x "$node_dir/node_modules/.bin/napi" ] ||
  [ "$node_dir/package-lock.json" -nt "$node_dir/node_modules/.package-lock.json" ]; then
  (cd "$node_dir" && npm ci --ignore-scripts --no-audit --no-fund)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/citestore-node-test.XXXXXX")
cluster=""
cleanup() {
  [ -z "$cluster" ] || bash "$node_dir/../tests/pg-cluster.sh" stop "$cluster"
  rm -rf "$work"
}
trap cleanup EXIT

# PostgreSQL for test/postgres.test.mjs: the server tests/run.sh started (CITESTORE_TEST_PG),
# else a throwaway cluster of our own; none is a failure under CI=true.
if [ -z "${CITESTORE_TEST_PG:-}" ]; then
  cluster=$(mktemp -d "${TMPDIR:-/tmp}/citestore-node-pg.XXXXXX")
  if url=$(bash "$node_dir/../tests/pg-cluster.sh" start "$cluster"); then
    export CITESTORE_TEST_PG="$url"
  else
    cluster=""
    [ "${CI:-}" != "true" ] || { echo "node/test/run.sh: FAIL: could not start PostgreSQL (apt-get install postgresql)" >&2; exit 1; }
    echo "node/test/run.sh: note: no PostgreSQL cluster; its test will say it did not run" >&2
  fi
fi

echo "== native.d.ts: napi build regenerates it; the checked-in file must match"
(cd "$node_dir" && node_modules/.bin/napi build --platform --no-js --dts native.d.ts \
  --output-dir "$work/napi" --manifest-path Cargo.toml --package citestore-node)
if ! diff -u "$node_dir/native.d.ts" "$work/napi/native.d.ts"; then
  echo "node/test/run.sh: FAIL: node/native.d.ts is stale; run \`npm run build:debug\` in node/ and commit it" >&2
  exit 1
fi

echo "== npm install $node_dir (into a new project; the addon as a debug build)"
mkdir "$work/project"
cd "$work/project"
npm init -y >/dev/null
CITESTORE_NODE_DEBUG=1 npm install --foreground-scripts --no-audit --no-fund "$node_dir"
node -e 'require("citestore")' # the install built and placed the addon

echo "== node --test"
cp -R "$node_dir/test" "$work/project/test"
node --test "$work"/project/test/*.test.mjs

echo "== tsc --strict --noEmit over the installed types, and node/README.md's TypeScript"
# Each ```ts block of the README becomes a module of its own, checked like the tests, then run.
mkdir readme
node -e '
const fs = require("node:fs");
const blocks = fs.readFileSync(process.argv[1], "utf8").split(/^```ts\n/m).slice(1).map((b) => b.split(/^```$/m)[0]);
if (blocks.length === 0) throw new Error("no ```ts block in " + process.argv[1]);
blocks.forEach((b, i) => fs.writeFileSync(`readme/block-${i + 1}.mts`, b + "\nexport {};\n"));
' "$node_dir/README.md"
# The package's types need no @types/node; the README's examples print, so `console` is declared.
echo 'declare const console: { log(...values: unknown[]): void };' >readme/console.d.ts
cat >tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "strict": true,
    "noEmit": true,
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "target": "es2022",
    "lib": ["es2022"],
    "types": [],
    "skipLibCheck": false
  },
  "include": ["test/*.test-d.mts", "test/*.test-d.cts", "readme/*.mts", "readme/console.d.ts"]
}
EOF
"$node_dir/node_modules/.bin/tsc" -p tsconfig.json

echo "== node/README.md's TypeScript, run"
cat >tsconfig.readme.json <<'EOF'
{
  "extends": "./tsconfig.json",
  "compilerOptions": { "noEmit": false, "rootDir": "readme", "outDir": "readme/js" },
  "include": ["readme/*.mts", "readme/console.d.ts"]
}
EOF
"$node_dir/node_modules/.bin/tsc" -p tsconfig.readme.json
for block in readme/js/*.mjs; do
  # Run where the package is installed (its own folder for the files it writes).
  (mkdir "$block.run" && cd "$block.run" && cp "../$(basename "$block")" . && node "$(basename "$block")")
done
echo "node/test/run.sh: all passed"

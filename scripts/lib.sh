# Shared helpers for the setup, play and test scripts. Every install is idempotent:
# it checks first and skips what is already there. Tools go to ~/.cargo/bin (outside
# the repository), so a fresh clone on the same machine reuses them.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
TRUNK_VERSION="0.21.14"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

STAGE_NAMES=()
STAGE_RESULTS=()
STAGE_SECONDS=()
# stage NAME COMMAND...: runs a command, records whether it passed and how long it took,
# and goes on either way, so one failing stage never hides what the others would say.
# The command runs in a subshell with `set -e`, as a script would (outside any `if`: there
# bash would ignore `set -e` inside the subshell).
stage() {
  local name="$1"
  shift
  log "$name"
  local t0=$SECONDS result=pass rc
  set +e
  (
    set -e
    "$@"
  )
  rc=$?
  set -e
  if [[ $rc != 0 ]]; then
    result=FAIL
    printf '\033[1;31m==> stage failed: %s\033[0m\n' "$name" >&2
  fi
  STAGE_NAMES+=("$name")
  STAGE_RESULTS+=("$result")
  STAGE_SECONDS+=($((SECONDS - t0)))
}

# stage_summary: the table of every stage (name, pass or FAIL, seconds), on standard output
# so that CI's log shows it too; returns non-zero if any stage failed.
stage_summary() {
  local i failed=0 passed=0
  echo
  echo "Stage summary (total ${SECONDS}s)"
  printf '  %-28s %-6s %7s\n' stage result seconds
  for i in "${!STAGE_NAMES[@]}"; do
    printf '  %-28s %-6s %7s\n' "${STAGE_NAMES[$i]}" "${STAGE_RESULTS[$i]}" "${STAGE_SECONDS[$i]}"
    if [[ "${STAGE_RESULTS[$i]}" == pass ]]; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
    fi
  done
  echo "stages: $passed passed, $failed failed"
  [[ $failed == 0 ]]
}

ensure_rust_targets() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
  fi
  for component in rustfmt clippy; do
    if ! rustup component list --installed | grep -q "^$component"; then
      rustup component add "$component"
    fi
  done
}

# The wasm-bindgen CLI must match the wasm-bindgen crate in Cargo.lock exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

# The two web tools are built from source (no registry we can reach ships their binaries):
# a third of a fresh clone's test run. Their release profiles ask for fat LTO and one
# codegen unit, and their default features bring TLS stacks (ring's C code) for downloads
# and an update check that an offline build never makes; they only translate a few
# megabytes of wasm, so an opt-level 1 build without LTO or those features serves as well
# and builds faster (README, the first-run times).
tool_install() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=false \
    CARGO_PROFILE_RELEASE_STRIP=true cargo install --no-default-features "$@"
}

ensure_web_tools() {
  ensure_rust_targets
  if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
    log "installing trunk $TRUNK_VERSION (several minutes, once)"
    tool_install trunk --version "$TRUNK_VERSION" --locked
  fi
  local want
  want="$(wasm_bindgen_version)"
  if ! wasm-bindgen --version 2>/dev/null | grep -q "$want"; then
    log "installing wasm-bindgen-cli $want (a few minutes, once)"
    # Not --locked: the CLI's own lock file names a dependency the registry no longer has.
    tool_install wasm-bindgen-cli --version "$want"
  fi
}

# The browser tests: Node (20 or newer), playwright-core and Lighthouse from
# tests/e2e/package-lock.json, and a Chromium on the machine (Debian's `chromium` package;
# Playwright downloads none).
ensure_e2e_tools() {
  if ! command -v node >/dev/null || ! node -e 'process.exit(+!(+process.versions.node.split(".")[0] > 20 || +process.versions.node.split(".")[1] >= 11))'; then
    echo "error: the browser tests need Node 20.11 or newer (apt-get install nodejs)" >&2
    return 1
  fi
  local chromium="${CHROMIUM:-/usr/bin/chromium}"
  if [[ ! -x "$chromium" ]]; then
    if command -v apt-get >/dev/null && [[ "$(id -u)" == 0 ]]; then
      log "installing Debian's chromium for the browser tests"
      apt-get install -y -q chromium >/dev/null
    else
      echo "error: no Chromium at $chromium (install Debian's chromium or set CHROMIUM)" >&2
      return 1
    fi
  fi
  local e2e="$ROOT/tests/e2e"
  local stamp="$e2e/node_modules/.package-lock.sha256"
  local want
  want="$(sha256sum "$e2e/package-lock.json" | cut -d' ' -f1)"
  if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    log "installing playwright-core and lighthouse (npm ci in tests/e2e)"
    (cd "$e2e" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
  fi
}

# The static server for the built site: sirv-cli (npm, 13 small packages, pinned in
# scripts/serve/package-lock.json) sends the precompressed NAME.br / NAME.gz that
# scripts/serve/precompress.mjs writes beside each file (scripts/build-site.sh runs it), so
# a player downloads about a quarter of the bytes. Needs Node; returns non-zero without it.
ensure_serve_tools() {
  command -v node >/dev/null || return 1
  local dir="$ROOT/scripts/serve"
  local stamp="$dir/node_modules/.package-lock.sha256"
  local want
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
  if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    log "installing sirv-cli, the static server (npm ci in scripts/serve)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$want" >"$stamp"
  fi
}

# serve_dist PORT: serves dist/ compressed on 127.0.0.1:PORT; it replaces the calling
# shell (run it last, or in a background subshell, whose pid is then the server's).
serve_dist() {
  exec "$ROOT/scripts/serve/node_modules/.bin/sirv" "$ROOT/dist" --host 127.0.0.1 --port "$1" --quiet --etag
}

# build_relaxed_worker PROFILE: the search worker with wasm's relaxed SIMD, into its own
# target directory (cargo rebuilds everything when RUSTFLAGS change, so sharing one with
# Trunk's build would rebuild both every time); scripts/build-relaxed-worker.sh turns it
# into worker-relaxed.js beside Trunk's plain build.
relaxed_worker_target() {
  echo "${CARGO_TARGET_DIR:-$ROOT/target}/relaxed-simd"
}
build_relaxed_worker() {
  RUSTFLAGS="-C target-feature=+simd128,+relaxed-simd" cargo build --quiet \
    --target wasm32-unknown-unknown --profile "$1" -p worker --bin worker \
    --target-dir "$(relaxed_worker_target)"
}

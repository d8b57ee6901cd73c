#!/usr/bin/env bash
# Time to the first line of small commands against a bare `node -e 0` in the same run (the machine's load shifts
# absolute figures; compare the rows). Usage: scripts/cli-startup.sh [CORPUS] [RUNS]
#   source scripts/node24.sh && scripts/cli-startup.sh /tmp/demo.db 20
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
corpus="${1:-$root/data/corpus.db}"
runs="${2:-20}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
node "$root/bin/juralite" org create --name Bench --data "$data" --json > /dev/null
text='Die Kündigung ist nach § 573 Abs. 2 Nr. 2 BGB wirksam; vgl. BGH, Urteil vom 23. Oktober 2013 - VIII ZR 214/12.'
if command -v hyperfine > /dev/null; then
  hyperfine -N --warmup 3 --runs "$runs" 'node -e 0' "node $root/bin/juralite --version" \
    "node $root/bin/juralite org list --data $data --json" "node $root/bin/juralite check --db $corpus --text '$text' --json"
  exit 0
fi
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
measure() {
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N); "$@" > /dev/null; end=$(date +%s%N)
    echo $(((end - start) / 1000000))
  done | median
}
printf '%-40s %8s\n' 'command' 'median ms'
printf '%-40s %8s\n' 'node -e 0' "$(measure node -e 0)"
printf '%-40s %8s\n' 'juralite --version' "$(measure node "$root/bin/juralite" --version)"
printf '%-40s %8s\n' 'juralite org list' "$(measure node "$root/bin/juralite" org list --data "$data" --json)"
printf '%-40s %8s\n' 'juralite check --text (demo corpus)' "$(measure node "$root/bin/juralite" check --db "$corpus" --text "$text" --json)"

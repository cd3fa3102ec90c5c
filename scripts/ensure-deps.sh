#!/usr/bin/env bash
# Installs what the project needs when it is missing: Debian packages (Java 17 for DynamoDB Local) and the
# npm packages of package-lock.json. Safe to run again: it does nothing when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the local runtime and the tests use, as "command:package" pairs.
APT_NEEDS=(
  "java:openjdk-17-jre-headless"
  "tesseract:tesseract-ocr"
  "pdftoppm:poppler-utils"
  "pdfinfo:poppler-utils"
  # OpenJPEG's encoder: the tests make scanned pages in JPEG 2000 (test/support/jpx-scan-pdf.ts).
  "opj_compress:libopenjp2-tools"
  # better-sqlite3 (the local search index) compiles its native module at npm ci when no prebuilt one can be fetched.
  "g++:g++"
  "make:make"
  "python3:python3"
  # Real WebDAV servers for the WebDAV source tests. An absolute path: /usr/sbin is not on every user's PATH.
  "/usr/sbin/apache2:apache2"
  "rclone:rclone"
  # The browser test of Swagger UI (test/e2e/swagger-ui-browser.test.ts) drives Debian's Chromium with playwright-core.
  "chromium:chromium"
)

# Tesseract language data (not commands), as "code:package" pairs: checked against `tesseract --list-langs`.
# osd is the orientation data that lets the OCR engine read pages turned by 90 or 180 degrees.
TESSDATA_NEEDS=(
  "eng:tesseract-ocr-eng"
  "deu:tesseract-ocr-deu"
  "osd:tesseract-ocr-osd"
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

installed_langs=""
if command -v tesseract >/dev/null 2>&1; then
  installed_langs="$(tesseract --list-langs 2>/dev/null | tail -n +2 || true)"
fi
for pair in "${TESSDATA_NEEDS[@]}"; do
  code="${pair%%:*}"
  pkg="${pair#*:}"
  if ! grep -qx "$code" <<<"$installed_langs"; then
    missing+=("$pkg")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  # One package can serve several commands (poppler-utils: pdftoppm and pdfinfo).
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm ci when node_modules is missing or older than the lock file. A build of better-sqlite3 (when no prebuilt
# module can be fetched) compiles its sources side by side on every core: the longest step of a fresh install.
export JOBS="${JOBS:-max}"
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "Installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
# better-sqlite3's native module is built for one Node ABI (one major): after a move to another Node (Node 20's
# node_modules under Node 22), build it again. Only opening a database loads the module.
elif ! node -e "new (require('better-sqlite3'))(':memory:').close()" >/dev/null 2>&1; then
  echo "Rebuilding better-sqlite3 for Node $(node --version) (npm rebuild)"
  npm rebuild better-sqlite3 --no-audit --no-fund --loglevel=error
fi

# The web console (web/): its own packages (web/package-lock.json), then its build into web/dist, which the local
# runtime serves at /. Built again when any of its sources is newer than the last build.
web_stamp=web/node_modules/.package-lock.json
if [ ! -f "$web_stamp" ] || [ web/package-lock.json -nt "$web_stamp" ]; then
  echo "Installing the web console's npm packages (npm ci in web/)"
  npm ci --prefix web --no-audit --no-fund --loglevel=error
fi
if [ ! -f web/dist/index.html ] || [ -n "$(find web/src web/build.ts web/site.ts client/src -newer web/dist/index.html -print -quit)" ]; then
  echo "Building the web console (web/build.ts)"
  node --import tsx web/build.ts >/dev/null
fi

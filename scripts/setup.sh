#!/usr/bin/env bash
# Idempotent set-up: installs what Limber's build and tests need, from Debian and
# the npm registry only. Prints what it does. Safe to run on every `npm start`/`npm test`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
say() { echo "[setup] $*"; }
need_root() { if [ "$(id -u)" -ne 0 ]; then echo "sudo"; fi; }
SUDO=$(need_root)

DEB_PKGS=(emscripten libcglm-dev chromium dpkg-dev cmake gcc clang clang-format libclang-rt-14-dev valgrind)
missing=()
for p in "${DEB_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# cJSON's Debian source package needs a deb-src entry; keep it in a private list file.
SRC_LIST=/etc/apt/sources.list.d/limber-deb-src.sources
if [ ! -f "$SRC_LIST" ]; then
  say "writing deb-src entry $SRC_LIST"
  $SUDO tee "$SRC_LIST" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

CJSON_DIR="$root/build/third_party/cjson"
if [ ${#missing[@]} -gt 0 ] || [ ! -f "$CJSON_DIR/cJSON.c" ]; then
  say "apt-get update"
  $SUDO apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$CJSON_DIR/cJSON.c" ]; then
  say "extracting cJSON from Debian's source package (patches applied) into $CJSON_DIR"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source -qq cjson >/dev/null 2>&1)
  src=$(find "$tmp" -maxdepth 1 -type d -name 'cjson-*' | head -1)
  [ -n "$src" ] || { echo "[setup] apt-get source cjson failed" >&2; exit 1; }
  mkdir -p "$CJSON_DIR"
  cp "$src/cJSON.c" "$src/cJSON.h" "$CJSON_DIR/"
  rm -rf "$tmp"
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
say "ready"

#!/usr/bin/env bash
# One-step setup right after a clone: system packages the build and tests need (Debian/Ubuntu),
# then the npm dependencies, then Electron's binary if it can be downloaded.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }

# --- System packages (Linux with apt only; macOS and Windows need none of these) -------------
# libsecret-1-dev: keytar builds against it; gnome-keyring + dbus: a real keyring for the tests;
# chromium: UI tests and browser mode screenshots; xvfb/xauth: a display for Electron on CI.
DEB_PACKAGES=(libsecret-1-dev gnome-keyring dbus dbus-x11 chromium xvfb xauth python3 make g++ pkg-config)
if [ "$(uname -s)" = "Linux" ] && command -v apt-get >/dev/null && command -v dpkg-query >/dev/null; then
  missing=()
  for p in "${DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = "0" ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else SUDO="none"; fi
    if [ "$SUDO" = "none" ]; then
      say "missing Debian packages: ${missing[*]}. Install them as root: apt-get install ${missing[*]}"
    else
      say "installing Debian packages: ${missing[*]}"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
  fi
fi

# --- npm dependencies ----------------------------------------------------------------------
# Electron's postinstall downloads its binary from a host that may be unreachable; skip it here and
# try once below, so the rest of the app (which runs under plain Node) always installs.
say "installing npm dependencies"
if [ -f package-lock.json ]; then
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund
else
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install --no-audit --no-fund
fi

# --- Electron binary ---------------------------------------------------------------------------
if node -e "require('fs').accessSync(require('electron'))" 2>/dev/null; then
  say "Electron is ready"
  node scripts/build-electron-native.mjs || true
elif [ -n "${CI:-}" ] || [ -n "${DESK_SKIP_ELECTRON:-}" ]; then
  say "CI: not downloading Electron; the UI is tested in browser mode with Chromium"
elif timeout 180 node node_modules/electron/install.js >/dev/null 2>&1 && node -e "require('fs').accessSync(require('electron'))" 2>/dev/null; then
  say "Electron downloaded"
  node scripts/build-electron-native.mjs || true
else
  say "Electron's binary could not be downloaded: the desktop window is unavailable here, so 'npm start' will use browser mode"
fi
say "done"

#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so keytar talks to
# a real Secret Service without touching the user's own keyring. Used by `npm test` and CI.
# Usage: scripts/with-keyring.sh <command> [args...]
set -euo pipefail
missing=()
for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  # In CI (or when the keychain is required) a run without a keyring would skip the keychain
  # tests and still go green: stop here instead, saying what to install.
  if [ "${CI:-}" = "true" ] || [ "${DESK_REQUIRE_KEYCHAIN:-}" = "1" ]; then
    echo "with-keyring: ERROR: ${missing[*]} not installed, so the keychain cannot be tested. Install dbus and gnome-keyring (npm run setup, or apt-get install dbus gnome-keyring)." >&2
    exit 1
  fi
  echo "with-keyring: ${missing[*]} missing (run: npm run setup); running without a keyring, so the keychain tests are skipped" >&2
  exec "$@"
fi
base=$(mktemp -d "${TMPDIR:-/tmp}/desk-keyring.XXXXXX")
mkdir -p "$base/data" "$base/run" "$base/cache" "$base/config"
chmod 700 "$base/run"
export XDG_DATA_HOME="$base/data" XDG_RUNTIME_DIR="$base/run" XDG_CACHE_HOME="$base/cache" XDG_CONFIG_HOME="$base/config"
export DESK_KEYRING_BASE="$base"
# The password only unlocks this throwaway keyring, which lives and dies with the session.
exec dbus-run-session -- bash -c 'echo -n test-keyring-pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; "$@"; rc=$?; rm -rf "$DESK_KEYRING_BASE"; exit $rc' with-keyring "$@"

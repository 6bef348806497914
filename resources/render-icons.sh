#!/usr/bin/env bash
# Renders icon.svg (the one source of the app icon) into what electron-builder packs:
#   icon.png        1024x1024, the master (electron-builder's fallback for every platform)
#   icon.icns       macOS (16 to 1024 px)
#   icon.ico        Windows (16 to 256 px; the 256 px image stored as PNG, as Windows expects)
#   icons/NxN.png   Linux (hicolor theme sizes for the AppImage and the deb)
# Needs Debian's librsvg2-bin (rsvg-convert), icnsutils (png2icns) and icoutils (icotool).
# The outputs are committed, so packaging needs none of these tools.
set -euo pipefail
cd "$(dirname "$0")"
for tool in rsvg-convert png2icns icotool; do
  command -v "$tool" >/dev/null || { echo "render-icons: $tool is missing (apt-get install librsvg2-bin icnsutils icoutils)"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
render() { rsvg-convert --width "$1" --height "$1" icon.svg --output "$2"; }

render 1024 icon.png
mkdir -p icons
for size in 16 32 48 64 128 256 512; do render "$size" "icons/${size}x${size}.png"; done
for size in 16 24 32 48 64 128 256 512 1024; do render "$size" "$work/$size.png"; done
png2icns icon.icns "$work/16.png" "$work/32.png" "$work/48.png" "$work/128.png" "$work/256.png" "$work/512.png" "$work/1024.png" >/dev/null
icotool --create --output icon.ico "$work/16.png" "$work/24.png" "$work/32.png" "$work/48.png" "$work/64.png" "$work/128.png" --raw="$work/256.png"
echo "render-icons: icon.png, icon.icns, icon.ico and icons/ written"

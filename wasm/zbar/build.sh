#!/usr/bin/env bash
# Builds zbar.wasm beside this script: zbar (Debian bookworm's source package: upstream 0.23.92 and Debian's
# patches) with qr-read.c, compiled for speed by Debian's Emscripten. The built module is committed:
# neither `npm run build` nor CI runs this (README.md beside it says why and what was measured).
# Run as root on Debian bookworm (it installs the toolchain with apt-get). To compare other builds:
# ZBAR_OPT replaces the optimisation flags, ZBAR_OUT the output file.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ZBAR_DEBIAN=0.23.92-7+deb12u1
ZBAR_UPSTREAM=0.23.92
ORIG_SHA256=dffc16695cb6e42fa318a4946fd42866c0f5ab735f7eaf450b108d1c3a19b4ba
DEBIAN_SHA256=bb794d1466b2ba5adabbb5ac7d271e801c757d096d4838fb0f721f6ed87eb588
EMSCRIPTEN=3.1.6~dfsg-5
OPT=${ZBAR_OPT:--O3 -flto -msimd128 -Wl,-mllvm,-inline-threshold=4000}
OUT=${ZBAR_OUT:-$here/zbar.wasm}

# The toolchain: Debian's Emscripten (its clang, lld and binaryen come with it).
if [ "$(dpkg-query -W -f '${Version}' emscripten 2>/dev/null)" != "$EMSCRIPTEN" ]; then
  apt-get update
  apt-get install -y --no-install-recommends "emscripten=$EMSCRIPTEN" patch
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# The source package, through apt: source entries beside the machine's binary ones when it has none.
if ! apt-get source --download-only "zbar=$ZBAR_DEBIAN" >/dev/null 2>&1; then
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >/etc/apt/sources.list.d/zbar-src.sources
  else
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >/etc/apt/sources.list.d/zbar-src.list
  fi
  apt-get update
  apt-get source --download-only "zbar=$ZBAR_DEBIAN"
fi
echo "$ORIG_SHA256  zbar_$ZBAR_UPSTREAM.orig.tar.gz" | sha256sum -c -
echo "$DEBIAN_SHA256  zbar_$ZBAR_DEBIAN.debian.tar.xz" | sha256sum -c -
tar xzf "zbar_$ZBAR_UPSTREAM.orig.tar.gz"
src=$work/zbar-$ZBAR_UPSTREAM
tar xJf "zbar_$ZBAR_DEBIAN.debian.tar.xz" -C "$src"
while read -r p; do
  [ -n "$p" ] && patch -d "$src" -p1 --quiet <"$src/debian/patches/$p"
done <"$src/debian/patches/series"
# Ours, last: the image scanner feeds each line to the scanner in one call that skips the samples which
# cannot change its state (README.md beside this script).
patch -d "$src" -p1 --quiet <"$here/scan-line.patch"

# The image scanner and the QR reader; the processor, window and video parts only as their null versions
# (the image code refers to them). config.h beside this script stands for configure's.
sources=(
  config.c error.c symbol.c image.c convert.c refcnt.c img_scanner.c scanner.c decoder.c misc.c
  processor.c processor/lock.c processor/null.c processor/posix.c window.c window/null.c video.c video/null.c
  decoder/qr_finder.c qrcode/qrdec.c qrcode/qrdectxt.c qrcode/rs.c qrcode/isaac.c qrcode/bch15_5.c
  qrcode/binarize.c qrcode/util.c
)
flags=($OPT -DNDEBUG -DZNO_MESSAGES -DHAVE_CONFIG_H -I"$here" -I"$src/include" -I"$src/zbar")
objects=()
for s in "${sources[@]}"; do
  o=$work/obj/${s//\//_}.o
  mkdir -p "$work/obj"
  emcc "${flags[@]}" -w -c "$src/zbar/$s" -o "$o"
  objects+=("$o")
done
emcc "${flags[@]}" -Wall -Werror "$here/qr-read.c" "${objects[@]}" -o "$OUT" \
  -sSTANDALONE_WASM --no-entry -sEXPORTED_FUNCTIONS=_qr_read,_malloc,_free \
  -sALLOW_MEMORY_GROWTH -sFILESYSTEM=0
sha256sum "$OUT"

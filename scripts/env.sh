# Sourced by the scripts: puts the Swift toolchain on PATH when a login profile has not, and points
# pkg-config at the libvips that setup builds (scripts/codec-stack.sh) rather than the system's.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH=/opt/swift/usr/bin:$PATH
fi
export PKG_CONFIG_PATH="${VARIANTD_PREFIX:-/opt/variantd}/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

# Sourced by codec-stack.sh, jpegli.sh and microhttpd.sh, which build from Debian's sources: their shared steps.

# Where they install (additively, each under names of its own) and where fetched sources are kept between runs.
prefix=${VARIANTD_PREFIX:-/opt/variantd}
cache=/var/cache/variantd-src

# is_built STAMP_FILE STAMP ARTIFACT: whether the build STAMP describes is the one installed, so that a re-run
# of an unchanged build does nothing. mark_built STAMP_FILE STAMP records it once installed.
is_built() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ] && [ -f "$3" ]; }
mark_built() { echo "$2" >"$1"; }
# patch_sums PATCH...: each patch's SHA-256, a line each, for a stamp, so that a changed patch builds again.
patch_sums() { sha256sum "$@" | cut -d' ' -f1; }
# apply_patches DIR PATCH...: our patches, in order, to the tree in DIR.
apply_patches() {
  local dir=$1 file
  shift
  for file in "$@"; do patch -s -p1 -d "$dir" <"$file"; done
}

# begin_build URI CACHE: installs the caller's build_deps not installed yet, fetches its sources (fetch_sources),
# and sets `work`, a temporary directory removed on exit, and `started`, the time the build began.
begin_build() {
  if ! dpkg -s "${build_deps[@]}" >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${build_deps[@]}" >/dev/null
  fi
  fetch_sources "$1" "$2" "${sources[@]}"
  started=$(date +%s)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

# fetch_sources URI CACHE ENTRY…: each entry ("name pool-path sha256") from the pool of the Debian source URI
# into CACHE, unless it is there already; fails unless every file matches its pinned SHA-256.
fetch_sources() {
  local uri=$1 cache=$2 entry name pool sum
  shift 2
  mkdir -p "$cache"
  for entry in "$@"; do
    read -r name pool sum <<<"$entry"
    if ! echo "$sum  $cache/$name" | sha256sum --check --status 2>/dev/null; then
      curl -fsS --retry 3 -o "$cache/$name.part" "$uri/pool/main/$pool/$name"
      mv "$cache/$name.part" "$cache/$name"
    fi
    echo "$sum  $cache/$name" | sha256sum --check --quiet || {
      echo "$(basename "$0"): $name does not match its pinned SHA-256" >&2
      return 1
    }
  done
}

# unpack_debian ORIG DEBIAN DIR: the upstream tarball ORIG with Debian's patch series from DEBIAN applied, in DIR.
unpack_debian() {
  mkdir -p "$3"
  tar -xf "$1" -C "$3" --strip-components=1
  tar -xJf "$2" -C "$3"
  local patch
  while read -r patch; do
    [ -n "$patch" ] && patch -s -p1 -d "$3" <"$3/debian/patches/$patch"
  done < <(grep -v '^#' "$3/debian/patches/series")
}

#!/usr/bin/env bash
# Installs variantd as a service on Debian 12 (run as root after scripts/setup.sh):
#
#   bash scripts/install.sh [--binary PATH]
#
# - the binary to /usr/local/bin/variantd (by default a release build of this checkout);
# - a `variantd` system user, its state folder /var/lib/variantd (queue, quarantine, renditions);
# - /etc/variantd/: variantd.env (settings read by both units), work-default.env, a generated secret and
#   buckets/post-images.json as an example declaration;
# - the systemd units variantd-serve.service and variantd-work@.service (one instance per queue).
#
# Existing configuration files are kept. With DESTDIR set, everything goes under that folder instead and no
# user, ownership or systemd state is touched (packaging, and the tests that verify the units).
# Idempotent: a second run changes nothing but the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=
while [ $# -gt 0 ]; do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    *) echo "install: unknown argument '$1'" >&2; exit 64 ;;
  esac
done
root=${DESTDIR:-}
if [ -z "$binary" ]; then
  . scripts/env.sh
  swift build -c release --product variantd >&2
  binary=.build/release/variantd
fi
[ -x "$binary" ] || { echo "install: '$binary' is not an executable" >&2; exit 66; }

if [ -z "$root" ]; then
  getent group variantd >/dev/null || groupadd --system variantd
  getent passwd variantd >/dev/null || useradd --system --gid variantd --home-dir /var/lib/variantd \
    --no-create-home --shell /usr/sbin/nologin --comment "variantd picture service" variantd
fi

install -d -m 0755 "$root/usr/local/bin" "$root/etc/systemd/system"
install -m 0755 "$binary" "$root/usr/local/bin/variantd"
install -d -m 0750 "$root/etc/variantd" "$root/etc/variantd/buckets" "$root/var/lib/variantd" \
  "$root/var/lib/variantd/renditions"

keep() { # keep FILE: true when FILE exists and must not be overwritten
  [ -e "$root$1" ]
}
keep /etc/variantd/buckets/post-images.json \
  || install -m 0640 Samples/buckets/post-images.json "$root/etc/variantd/buckets/post-images.json"
keep /etc/variantd/secret || (umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' \
  >"$root/etc/variantd/secret")
keep /etc/variantd/variantd.env || cat >"$root/etc/variantd/variantd.env" <<'ENV'
# Settings of variantd-serve and every variantd-work@ instance (docs/Serve.md, docs/Queue.md).
# Stored objects (read only) and the rendition store (written; must stay under /var/lib/variantd, or be
# added to ReadWritePaths= with a drop-in: systemctl edit variantd-serve).
VARIANTD_ROOT=/srv/objects
VARIANTD_OUT=/var/lib/variantd/renditions
VARIANTD_BUCKETS=/etc/variantd/buckets
VARIANTD_LISTEN=127.0.0.1:8089
VARIANTD_SECRET_FILE=/etc/variantd/secret
VARIANTD_DATA_DIR=/var/lib/variantd
# One quarantine for every process on this machine.
VARIANTD_QUARANTINE=/var/lib/variantd/quarantine.sqlite3
# The queue async jobs go to; each worker instance may name its own in work-NAME.env.
VARIANTD_QUEUE=sqlite:/var/lib/variantd/queue.sqlite3
ENV
keep /etc/variantd/work-default.env || cat >"$root/etc/variantd/work-default.env" <<'ENV'
# variantd-work@default: the queue this instance claims from.
VARIANTD_QUEUE=sqlite:/var/lib/variantd/queue.sqlite3
ENV
for unit in variantd-serve.service variantd-work@.service; do
  install -m 0644 "scripts/systemd/$unit" "$root/etc/systemd/system/$unit"
done

if [ -z "$root" ]; then
  chown -R root:variantd /etc/variantd
  chmod 0640 /etc/variantd/secret /etc/variantd/variantd.env /etc/variantd/work-default.env
  chown -R variantd:variantd /var/lib/variantd
  if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    echo "install: start with: systemctl enable --now variantd-serve variantd-work@default" >&2
  else
    echo "install: systemd is not running here; the units are in /etc/systemd/system" >&2
  fi
fi

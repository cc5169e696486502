#!/bin/sh
# Install the Debian packages rowpipe builds, tests and benchmarks with,
# only those missing.  Idempotent; needs root only when something is missing.
# libjansson-dev: json2rows parses JSON with it (strict RFC 8259, UTF-8
# checked); nettle-dev: base64 for rows2json/json2rows; jq: their tests;
# mariadb-plugin-connect, mariadb-plugin-spider: the CONNECT and SPIDER
# engines, whose tables t1093 dumps (definitions only); python3-yaml: t6071
# parses the Kubernetes Job; iproute2, rsync, bc: bench/fleet's network
# namespaces, veth pairs and tc link limits, GNU parallel's --basefile, its
# arithmetic.
set -eu
PKGS="make gcc clang libclang-rt-14-dev pkg-config
default-libmysqlclient-dev liblz4-dev libbsd-dev libxxhash-dev libcmocka-dev
libjansson-dev nettle-dev jq
mariadb-server mariadb-client mariadb-test mariadb-plugin-connect
mariadb-plugin-spider lz4 zstd mandoc perl tzdata
netcat-openbsd mydumper openssl tmux parallel xxhash python3-yaml iproute2
rsync bc"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
	    missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: not root; run as root: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# Debian starts the packaged server on install; policy-rc.d keeps it from
# doing so (we run our own throwaway server).
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d.rowpipe
if [ ! -e /usr/sbin/policy-rc.d ]; then
	cp /usr/sbin/policy-rc.d.rowpipe /usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
rm -f /usr/sbin/policy-rc.d.rowpipe
apt-get install -y -qq --no-install-recommends $missing

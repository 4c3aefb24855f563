#!/usr/bin/env bash
# Install PCP 6.0.3 from Debian's packages and start pmcd. There is no
# systemd in CI: the package's postinst error about it is harmless.
set -u
if ! command -v pminfo >/dev/null 2>&1 || ! /usr/bin/python3 -c 'from pcp import pmi' 2>/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update >/dev/null 2>&1
	apt-get install -y pcp python3-pcp >/dev/null 2>&1 || dpkg --configure -a >/dev/null 2>&1 || true
fi
if ! pminfo -f hinv.ncpu >/dev/null 2>&1; then
	/etc/init.d/pmcd start >/dev/null 2>&1 || true
	for _ in $(seq 1 40); do
		pminfo -f hinv.ncpu >/dev/null 2>&1 && break
		sleep 0.5
	done
fi
pminfo -f hinv.ncpu >/dev/null 2>&1 || echo "warning: pmcd is not answering" >&2

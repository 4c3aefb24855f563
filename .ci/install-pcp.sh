#!/usr/bin/env bash
# Install the real components the tests compare with and drive, from
# Debian's packages: PCP 6.0.3 (pmcd, pmie, pmie_check, python3-pcp's pmi),
# rsyslog and Prometheus Alertmanager; then start pmcd. There is no systemd
# in CI: the pcp package's postinst error about it is harmless. Tests start
# rsyslogd and Alertmanager themselves, on private sockets and loopback
# ports.
set -u
want() {
	command -v pminfo >/dev/null 2>&1 || return 0
	/usr/bin/python3 -c 'from pcp import pmi' 2>/dev/null || return 0
	[ -x /usr/sbin/rsyslogd ] || return 0
	[ -x /usr/bin/prometheus-alertmanager ] || return 0
	return 1
}
if want; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update >/dev/null 2>&1
	apt-get install -y pcp python3-pcp rsyslog prometheus-alertmanager >/dev/null 2>&1 ||
		dpkg --configure -a >/dev/null 2>&1 || true
fi
if ! pminfo -f hinv.ncpu >/dev/null 2>&1; then
	/etc/init.d/pmcd start >/dev/null 2>&1 || true
	for _ in $(seq 1 40); do
		pminfo -f hinv.ncpu >/dev/null 2>&1 && break
		sleep 0.5
	done
fi
pminfo -f hinv.ncpu >/dev/null 2>&1 || echo "warning: pmcd is not answering" >&2

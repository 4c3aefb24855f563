// Package nss finds users and hosts as the C library's name service switch
// (nsswitch.conf(5)) does, whether or not the program is linked with the
// C library.
//
// Built with cgo, os/user and net ask the C library, which consults every
// source the switch names (files, DNS, LDAP, NIS, sssd, mDNS...). Built
// without it (CGO_ENABLED=0: a static binary that starts sooner), they
// read /etc/passwd, /etc/group, /etc/hosts and DNS only. Then, for a name
// those do not have, this package asks getent(1), the C library's own
// lookup in a process of its own, so that a static pmie or pminfo finds
// the same users and hosts as PCP's tools. Names found the usual way cost
// no process.
//
// It owns only that fallback: everything else is os/user's and net's.
package nss

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"os/user"
	"strings"
)

// LookupUser finds the user called name (user.Lookup), asking getent when
// this build's os/user cannot see every source and does not find it.
func LookupUser(name string) (*user.User, error) { return lookupUser(name, !native) }

func lookupUser(name string, fallback bool) (*user.User, error) {
	u, err := user.Lookup(name)
	var unknown user.UnknownUserError
	if err == nil || !fallback || !errors.As(err, &unknown) {
		return u, err
	}
	out, gerr := getent(context.Background(), "passwd", name)
	if gerr != nil {
		return nil, err
	}
	if gu, ok := parsePasswd(out, name); ok {
		return gu, nil
	}
	return nil, err
}

// GroupIDs lists the groups u belongs to (u.GroupIds), asking getent's
// initgroups when this build's os/user cannot see every source.
func GroupIDs(u *user.User) ([]string, error) { return groupIDs(u, !native) }

func groupIDs(u *user.User, fallback bool) ([]string, error) {
	ids, err := u.GroupIds()
	if !fallback {
		return ids, err
	}
	out, gerr := getent(context.Background(), "initgroups", u.Username)
	if gerr != nil {
		return ids, err
	}
	if gids, ok := parseInitgroups(out, u.Username); ok {
		return mergeIDs(u.Gid, ids, gids), nil
	}
	return ids, err
}

// NotFoundHost gives the addresses that getent's ahosts finds for host,
// after net did not find it (err, a *net.DNSError saying so), when this
// build's resolver cannot see every source of the switch. Otherwise, or
// if getent finds nothing, it returns err.
func NotFoundHost(ctx context.Context, host string, err error) ([]string, error) {
	return notFoundHost(ctx, host, err, !native)
}

func notFoundHost(ctx context.Context, host string, err error, fallback bool) ([]string, error) {
	var dns *net.DNSError
	if !fallback || !errors.As(err, &dns) || !dns.IsNotFound {
		return nil, err
	}
	out, gerr := getent(ctx, "ahosts", host)
	if gerr != nil {
		return nil, err
	}
	if a := parseAhosts(out); len(a) > 0 {
		return a, nil
	}
	return nil, err
}

// Dial connects to addr as d.DialContext does; when net finds no address
// for a TCP address's host and this build's resolver cannot see every
// source of the switch, it dials the addresses getent finds, in order,
// until one answers.
func Dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	nc, err := d.DialContext(ctx, network, addr)
	if err == nil || native || (network != "tcp" && network != "tcp4" && network != "tcp6") {
		return nc, err
	}
	return dialFound(ctx, d, network, addr, err, true)
}

func dialFound(ctx context.Context, d *net.Dialer, network, addr string, err error, fallback bool) (net.Conn, error) {
	host, port, serr := net.SplitHostPort(addr)
	if serr != nil {
		return nil, err
	}
	addrs, err := notFoundHost(ctx, host, err, fallback)
	for _, a := range addrs {
		var nc net.Conn
		if nc, err = d.DialContext(ctx, network, net.JoinHostPort(a, port)); err == nil {
			return nc, nil
		}
	}
	return nil, err
}

// UsesGetent reports whether this build asks getent for the users and
// hosts that os/user and net do not find.
func UsesGetent() bool { return !native }

// getent runs getent(1) on database and key and returns what it printed.
// It fails when getent cannot be run or finds nothing (exit status 2).
func getent(ctx context.Context, database, key string) ([]byte, error) {
	if key == "" || strings.HasPrefix(key, "-") {
		return nil, errors.New("nss: no such name")
	}
	return exec.CommandContext(ctx, "getent", database, key).Output()
}

// parsePasswd reads a passwd(5) line for name.
func parsePasswd(out []byte, name string) (*user.User, bool) {
	for line := range strings.SplitSeq(string(out), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 7 || f[0] != name || f[2] == "" || f[3] == "" {
			continue
		}
		gecos, _, _ := strings.Cut(f[4], ",")
		return &user.User{Username: f[0], Uid: f[2], Gid: f[3], Name: gecos, HomeDir: f[5]}, true
	}
	return nil, false
}

// parseInitgroups reads getent initgroups' line for name: the name, then
// the ids of the groups.
func parseInitgroups(out []byte, name string) ([]string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 && f[0] == name {
			return f[1:], true
		}
	}
	return nil, false
}

// parseAhosts reads getent ahosts' lines (an address, a socket type and,
// on the first, the canonical name) and returns each address once, in
// order.
func parseAhosts(out []byte) []string {
	var addrs []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || seen[f[0]] || net.ParseIP(f[0]) == nil {
			continue
		}
		seen[f[0]] = true
		addrs = append(addrs, f[0])
	}
	return addrs
}

// mergeIDs is the primary group, then the groups found either way, each
// once.
func mergeIDs(primary string, a, b []string) []string {
	out := []string{primary}
	seen := map[string]bool{primary: true}
	for _, l := range [][]string{a, b} {
		for _, id := range l {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

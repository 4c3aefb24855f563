package nss

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"testing"
)

// fakeGetent puts on $PATH a getent that knows, beyond what os/user and
// net read, the user "nssonly" (uid 4242, gid 4243, in groups 4243 and
// 4300) and the hosts "nssonly.example" (10.9.8.7 and ::1) and
// "nssloop.example" (127.0.0.1), as a name
// service such as LDAP or mDNS would give them, and nothing else (exit
// status 2, as getent's).
func fakeGetent(t *testing.T) {
	dir := t.TempDir()
	script := `#!/bin/sh
case "$1 $2" in
"passwd nssonly") echo 'nssonly:x:4242:4243:Only In NSS,,,:/home/nssonly:/bin/sh' ;;
"initgroups nssonly") echo 'nssonly              4243 4300' ;;
"ahosts nssloop.example") echo '127.0.0.1       STREAM nssloop.example' ;;
"ahosts nssonly.example") printf '10.9.8.7        STREAM nssonly.example\n10.9.8.7        DGRAM  \n10.9.8.7        RAW    \n::1             STREAM \n' ;;
*) exit 2 ;;
esac
`
	if err := os.WriteFile(filepath.Join(dir, "getent"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestFallback checks the lookups as a build without cgo makes them:
// names the files have are found as os/user and net find them; names
// only a name service has come from getent; names nobody has are not
// found, with os/user's and net's errors; and a build that asks the C
// library itself (no fallback) never asks getent.
func TestFallback(t *testing.T) {
	fakeGetent(t)
	u, err := lookupUser("nssonly", true)
	if err != nil || u.Uid != "4242" || u.Gid != "4243" || u.Name != "Only In NSS" || u.HomeDir != "/home/nssonly" {
		t.Fatalf("nssonly: %+v, %v", u, err)
	}
	if ids, err := groupIDs(u, true); err != nil || !slices.Equal(ids, []string{"4243", "4300"}) {
		t.Errorf("nssonly's groups: %v, %v", ids, err)
	}
	if _, err := lookupUser("nssonly", false); err == nil {
		t.Error("without the fallback, nssonly was found")
	}
	var unknown user.UnknownUserError
	if _, err := lookupUser("nobody-at-all-here", true); !errors.As(err, &unknown) {
		t.Errorf("an unknown user: %v, want os/user's UnknownUserError", err)
	}
	if root, err := lookupUser("root", true); err != nil || root.Uid != "0" {
		t.Errorf("root: %+v, %v", root, err)
	}

	ctx := context.Background()
	notFound := func(host string) error {
		_, err := net.DefaultResolver.LookupHost(ctx, host)
		if err == nil {
			t.Skipf("%s is found by this machine's resolver", host)
		}
		return err
	}
	nerr := notFound("nssonly.example")
	if addrs, err := notFoundHost(ctx, "nssonly.example", nerr, true); err != nil || !slices.Equal(addrs, []string{"10.9.8.7", "::1"}) {
		t.Errorf("nssonly.example: %v, %v", addrs, err)
	}
	if _, err := notFoundHost(ctx, "nssonly.example", nerr, false); err != nerr {
		t.Errorf("without the fallback, nssonly.example: %v, want the resolver's error", err)
	}
	other := errors.New("connection refused")
	if _, err := notFoundHost(ctx, "nssonly.example", other, true); err != other {
		t.Errorf("after another error than not found: %v, want it", err)
	}
	nerr = notFound("no-such-host.invalid")
	if _, err := notFoundHost(ctx, "no-such-host.invalid", nerr, true); err != nerr {
		t.Errorf("no-such-host.invalid: %v, want the resolver's error", err)
	}
}

// TestDialFound checks that a connection to a host only a name service
// knows is made to the address getent gives, and that without the
// fallback it fails as net fails.
func TestDialFound(t *testing.T) {
	fakeGetent(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Write([]byte("hello"))
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	addr := net.JoinHostPort("nssloop.example", port)
	ctx := context.Background()
	var d net.Dialer
	_, nerr := d.DialContext(ctx, "tcp", addr)
	if nerr == nil {
		t.Skip("nssloop.example is found by this machine's resolver")
	}
	if _, err := dialFound(ctx, &d, "tcp", addr, nerr, false); err != nerr {
		t.Errorf("without the fallback: %v, want net's error", err)
	}
	c, err := dialFound(ctx, &d, "tcp", addr, nerr, true)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if b, _ := io.ReadAll(c); string(b) != "hello" {
		t.Errorf("read %q from the listener", b)
	}
}

// TestRealGetent asks the system's own getent, where there is one, for
// root: what it gives is what os/user reads from /etc/passwd.
func TestRealGetent(t *testing.T) {
	if _, err := exec.LookPath("getent"); err != nil {
		t.Skip("no getent")
	}
	out, err := getent(context.Background(), "passwd", "root")
	if err != nil {
		t.Fatal(err)
	}
	got, ok := parsePasswd(out, "root")
	want, err := user.Lookup("root")
	if !ok || err != nil || got.Uid != want.Uid || got.Gid != want.Gid || got.HomeDir != want.HomeDir {
		t.Errorf("getent passwd root: %+v; os/user: %+v, %v", got, want, err)
	}
	if _, err := getent(context.Background(), "passwd", "-s"); err == nil {
		t.Error("an option was passed to getent as a name")
	}
}

// TestParse checks the readers of getent's output on lines that are not
// what was asked for, short, or malformed.
func TestParse(t *testing.T) {
	if _, ok := parsePasswd([]byte("other:x:1:1::/:/bin/sh\nname:x:1\n"), "name"); ok {
		t.Error("a short passwd line was read")
	}
	if _, ok := parseInitgroups([]byte("other 1 2\n"), "name"); ok {
		t.Error("another user's groups were read")
	}
	if a := parseAhosts([]byte("not-an-address STREAM x\n\n10.0.0.1 RAW\n")); !slices.Equal(a, []string{"10.0.0.1"}) {
		t.Errorf("addresses %v", a)
	}
	if ids := mergeIDs("5", []string{"5", "6"}, []string{"7", "6"}); !slices.Equal(ids, []string{"5", "6", "7"}) {
		t.Errorf("merged %v", ids)
	}
}

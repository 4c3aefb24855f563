//go:build linux

package hugeheap

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping holding addr, from
// /proc/self/smaps, and its AnonHugePages line.
func vmFlags(t *testing.T, addr uintptr) (flags []string, huge string) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= addr && addr < hi
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			huge = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			return strings.Fields(v), huge
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return nil, ""
}

// TestAdviceAndStop checks that the heap the package found is advised to
// take huge pages from its initialisation (the mapping's VmFlags say
// "hg"), and advised against them once Stop is called ("nh").
func TestAdviceAndStop(t *testing.T) {
	if probe == nil {
		t.Fatal("no advice given (GODEBUG is " + os.Getenv("GODEBUG") + ")")
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skipf("a kernel without transparent huge pages refuses the advice: %v", err)
	}
	p := uintptr(unsafe.Pointer(probe))
	if p&^(arenaSize-1) != arena {
		t.Fatalf("arena %#x does not hold the probe at %#x", arena, p)
	}
	flags, huge := vmFlags(t, p)
	if !contains(flags, "hg") {
		t.Errorf("heap mapping's flags %v lack hg (huge pages advised)", flags)
	}
	t.Logf("the heap's first mapping holds %s of huge pages", huge)
	Stop()
	flags, _ = vmFlags(t, p)
	if !contains(flags, "nh") || contains(flags, "hg") {
		t.Errorf("after Stop, the heap mapping's flags are %v, want nh and no hg", flags)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestDisabled checks GODEBUG's disablethp as the runtime reads it (the
// last setting holds), and that a process started with it set gives no
// advice.
func TestDisabled(t *testing.T) {
	for godebug, want := range map[string]bool{
		"":                            false,
		"disablethp=1":                true,
		"disablethp=0":                false,
		"gctrace=1,disablethp=1":      true,
		"disablethp=1,disablethp=0":   false,
		"madvdontneed=1":              false,
		"xdisablethp=1":               false,
		"disablethp=1,madvdontneed=1": true,
		"disablethp=2":                true,
		"disablethp=1,disablethp=x":   true,
		"disablethp=":                 false,
		",,disablethp=1,":             true,
	} {
		if got := disabled(godebug); got != want {
			t.Errorf("disabled(%q) = %v, want %v", godebug, got, want)
		}
	}
	if os.Getenv("HUGEHEAP_CHILD") == "1" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoAdvice$", "-test.v")
	cmd.Env = append(os.Environ(), "GODEBUG=disablethp=1", "HUGEHEAP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNoAdvice") {
		t.Errorf("with GODEBUG=disablethp=1: %v\n%s", err, out)
	}
}

// TestNoAdvice is run by TestDisabled in a process started with
// GODEBUG=disablethp=1.
func TestNoAdvice(t *testing.T) {
	if os.Getenv("HUGEHEAP_CHILD") != "1" {
		t.Skip("run by TestDisabled")
	}
	if probe != nil || arena != 0 {
		t.Fatalf("advice given under GODEBUG=%s", os.Getenv("GODEBUG"))
	}
}

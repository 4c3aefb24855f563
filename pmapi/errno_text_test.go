package pmapi

import "testing"

func TestErrnoText(t *testing.T) {
	for code, want := range map[Errno]string{
		-2:   "No such file or directory",
		-7:   "Argument list too long",
		-41:  "Unknown error 41",
		-133: "Memory page has hardware error",
		-200: "Unknown error 200",
	} {
		if got := code.Error(); got != want {
			t.Errorf("Errno(%d).Error() = %q, want %q", code, got, want)
		}
	}
}

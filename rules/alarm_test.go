package rules

import (
	"testing"
	"time"
)

// TestAlarmCancelled checks that deadlines set and cancelled faster than
// the alarm's goroutine takes them never hold up the next one nor fire
// (a cancel that overtook the goroutine's wait used to leave it waiting
// out the old deadline, and the engine waiting to set the next), and
// that a deadline not cancelled fires with its generation.
func TestAlarmCancelled(t *testing.T) {
	a := newAlarm()
	defer a.stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 2000 {
			a.cancel(a.start(time.Hour), i%2 == 0)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("setting deadlines was held up by cancelled ones")
	}
	select {
	case g := <-a.fired:
		t.Fatalf("cancelled deadline %d fired", g)
	default:
	}
	gen := a.start(10 * time.Millisecond)
	select {
	case g := <-a.fired:
		if g != gen {
			t.Errorf("fired %d, want %d", g, gen)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a deadline not cancelled did not fire")
	}

	// deadlines met and left set expire without firing, and an expiry
	// racing the next setting does not fire it early
	for range 20 {
		a.cancel(a.start(time.Millisecond), false)
		time.Sleep(2 * time.Millisecond)
	}
	a.start(time.Hour)
	select {
	case g := <-a.fired:
		t.Fatalf("deadline %d fired an hour early", g)
	case <-time.After(50 * time.Millisecond):
	}
}

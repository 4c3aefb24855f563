package waker

import (
	"testing"
	"time"
)

// TestWait checks that a wait lasts until its time, and that Wake ends a
// wait in progress, or the next one when called between waits.
func TestWait(t *testing.T) {
	w := New()
	defer w.Close()
	start := time.Now()
	if w.Wait(start.Add(30 * time.Millisecond)) {
		t.Error("woken without Wake")
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("waited %v, want 30ms", d)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		w.Wake()
	}()
	start = time.Now()
	if !w.Wait(start.Add(10 * time.Second)) {
		t.Error("Wake did not end the wait")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("woken after %v", d)
	}
	w.Wake()
	if !w.Wait(time.Now().Add(10 * time.Second)) {
		t.Error("a Wake between waits did not end the next")
	}
	if w.Wait(time.Now().Add(-time.Second)) {
		t.Error("a time past reported woken")
	}
	start = time.Now()
	w.Wait(start.Add(20 * time.Millisecond))
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("a wait after woken ones lasted %v, want 20ms", d)
	}
}

// TestWakeRace wakes waits at random moments: none may be lost.
func TestWakeRace(t *testing.T) {
	w := New()
	defer w.Close()
	for i := 0; i < 200; i++ {
		done := make(chan bool)
		go func() { done <- w.Wait(time.Now().Add(10 * time.Second)) }()
		time.Sleep(time.Duration(i%7) * 50 * time.Microsecond)
		w.Wake()
		select {
		case woken := <-done:
			if !woken {
				t.Fatalf("wait %d ended without Wake", i)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("wake %d lost", i)
		}
	}
}

// TestTimer checks that a Timer expires at the time it was last set to,
// that Clear disarms it, and that Close ends a Wait in progress.
func TestTimer(t *testing.T) {
	tm := NewTimer()
	start := time.Now()
	tm.Set(20 * time.Millisecond)
	if !tm.Wait() {
		t.Fatal("Wait failed")
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("expired after %v, want 20ms", d)
	}
	tm.Set(time.Hour)
	start = time.Now()
	tm.Set(10 * time.Millisecond) // replaces the hour
	if !tm.Wait() {
		t.Fatal("Wait failed")
	}
	if d := time.Since(start); d < 10*time.Millisecond || d > 5*time.Second {
		t.Errorf("expired after %v, want 10ms", d)
	}
	tm.Set(5 * time.Millisecond)
	tm.Clear()
	done := make(chan bool)
	go func() { done <- tm.Wait() }()
	select {
	case <-done:
		t.Fatal("a cleared timer expired")
	case <-time.After(50 * time.Millisecond):
	}
	tm.Close()
	select {
	case ok := <-done:
		if ok {
			t.Error("Wait reported an expiry after Close")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the Wait")
	}
}

// Package waker waits until a time, or until woken, without a timer of
// the Go runtime where it can: on Linux it waits on a timer descriptor
// (timerfd) read through the runtime's network poller. The runtime's
// monitor thread sleeps until the next runtime timer and, woken by it,
// polls for a while: a live pmie waiting on a runtime timer between
// evaluations every 100 msec makes four thread wake-ups of each, where
// waiting on the descriptor makes one (measured: 599 context switches in
// 15 s against 150, and half the CPU time, for an empty 100 msec loop).
// Elsewhere, or if the descriptor cannot be made, it waits on a runtime
// timer.
//
// A Waker is for one goroutine's waits at a time; Wake may be called
// from any goroutine. A Timer is set (and cleared) by one goroutine and
// waited for by another, on a descriptor of its own: setting it again
// wakes nobody, so a deadline met costs one system call, where
// cancelling a Waker's wait would wake its waiter.
package waker

package pmapi

import "time"

// Time is an instant, in nanoseconds since the Unix epoch (UTC). Archive
// timestamps of both log formats and pmcd's timestamps fit it exactly.
type Time int64

// TimeOf makes a Time from seconds and nanoseconds since the epoch.
func TimeOf(sec int64, nsec int64) Time { return Time(sec*1e9 + nsec) }

// FromStd converts a time.Time.
func FromStd(t time.Time) Time { return Time(t.UnixNano()) }

// Sec is the whole seconds of t.
func (t Time) Sec() int64 {
	s := int64(t) / 1e9
	if t < 0 && int64(t)%1e9 != 0 {
		s--
	}
	return s
}

// Nsec is the nanoseconds of t after Sec.
func (t Time) Nsec() int64 { return int64(t) - t.Sec()*1e9 }

// Std converts t to a time.Time in UTC.
func (t Time) Std() time.Time { return time.Unix(t.Sec(), t.Nsec()).UTC() }

// Seconds is t as floating point seconds since the epoch.
func (t Time) Seconds() float64 { return float64(t) / 1e9 }

// Add is t plus d.
func (t Time) Add(d time.Duration) Time { return t + Time(d) }

// Sub is the duration from u to t.
func (t Time) Sub(u Time) time.Duration { return time.Duration(t - u) }

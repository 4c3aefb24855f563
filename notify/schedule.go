package notify

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/gopcp/pmie/internal/yamlcfg"
)

// schedule is a cron schedule read in the configuration's time zone.
type schedule struct {
	cron.Schedule
	loc *time.Location
}

// next is the first time the schedule fires after t.
func (s schedule) next(t time.Time) time.Time {
	return s.Next(t.In(s.loc))
}

// cronParser reads the five fields of crontab(5) (minute, hour, day of
// month, month, day of week) and the descriptors (@hourly, @daily,
// @every 30s, ...), with an optional CRON_TZ= prefix.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// cronSchedule checks and reads a cron specification: it must parse and
// fire at least once in the next five years.
func cronSchedule(d *yamlcfg.Decoder, key, spec string, loc *time.Location) schedule {
	if spec == "" {
		d.Errorf(key, "required: a cron schedule such as \"0 9 * * 1-5\" or \"@every 1m\"")
		return schedule{}
	}
	s, err := parseCron(spec)
	if err != nil {
		d.Errorf(key, "%v", err)
		return schedule{}
	}
	sc := schedule{s, loc}
	if sc.next(time.Now()).IsZero() {
		d.Errorf(key, "%q never fires", spec)
		return schedule{}
	}
	return sc
}

// parseCron parses spec, turning a panic in the parser (which is not
// ours) into an error.
func parseCron(spec string) (s cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("not a cron schedule: %q", spec)
		}
	}()
	if (strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=")) && !strings.Contains(spec, " ") {
		return nil, fmt.Errorf("not a cron schedule: %q (a time zone and nothing else)", spec)
	}
	return cronParser.Parse(spec)
}

// active reports whether the window is open at t: whether its schedule
// fired at some time a with a <= t < a + Duration.
func (w *TimeWindow) active(t time.Time) bool {
	if w.sched.Schedule == nil {
		return false
	}
	a := w.sched.next(t.Add(-w.Duration))
	return !a.IsZero() && !a.After(t)
}

// muted reports whether any of the windows named is open at t.
func (c *Config) muted(names []string, t time.Time) bool {
	for _, name := range names {
		for i := range c.Windows {
			if w := &c.Windows[i]; w.Name == name && w.active(t) {
				return true
			}
		}
	}
	return false
}

// startHeartbeats runs cfg's heartbeats on their schedules, each time
// calling beat; stop ends them.
func startHeartbeats(cfg *Config, beat func(h *Heartbeat, t time.Time)) (stop func()) {
	if len(cfg.Heartbeats) == 0 {
		return func() {}
	}
	c := cron.New(cron.WithLocation(cfg.Location), cron.WithParser(cronParser))
	for i := range cfg.Heartbeats {
		h := &cfg.Heartbeats[i]
		c.Schedule(h.sched, cron.FuncJob(func() { beat(h, time.Now()) }))
	}
	c.Start()
	return func() { <-c.Stop().Done() }
}

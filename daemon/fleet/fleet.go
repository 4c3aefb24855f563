package fleet

import "time"

// Config is a fleet as the daemon configuration describes it, with its
// hosts read from every list, hosts file and control file, and checked.
type Config struct {
	Members []Member `json:"members"`
	// Shard is the configuration's shard ("" the whole fleet); pmie's
	// --shard wins over it.
	Shard string `json:"shard,omitempty"`
	// Connections bounds the connections being made at once (each a
	// connection and pmcd's first answers), Fetches the fetches in
	// flight at once, over all hosts.
	Connections int `json:"connections"`
	Fetches     int `json:"fetches"`
	// BackoffMin and BackoffMax bound the wait between attempts to reach
	// a host that cannot be reached: the first after BackoffMin, each
	// next twice as long, up to BackoffMax.
	BackoffMin time.Duration `json:"backoff_min"`
	BackoffMax time.Duration `json:"backoff_max"`
	// Files are the hosts files and control files read: a change to one
	// reloads.
	Files []string `json:"files,omitempty"`
	// Warnings are what the control files said that pmie should log.
	Warnings []string `json:"warnings,omitempty"`
}

// The defaults of Config's bounds.
const (
	DefaultConnections = 64
	DefaultFetches     = 256
	DefaultBackoffMin  = 5 * time.Second
	DefaultBackoffMax  = 5 * time.Minute
)

// Owned are the members shard s evaluates.
func (c *Config) Owned(s Shard) []Member {
	var out []Member
	for _, m := range c.Members {
		if s.Owns(m.Host) {
			out = append(out, m)
		}
	}
	return out
}

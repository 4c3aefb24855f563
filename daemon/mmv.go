package daemon

import (
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gopcp/pmie/daemon/selfmetrics"
	"github.com/gopcp/pmie/internal/mmv"
	"github.com/gopcp/pmie/internal/pcpconf"
	"github.com/gopcp/pmie/rules"
)

// mmvEvery is the least time between two updates of the MMV file's
// values (pmcd's clients rarely look more often).
const mmvEvery = 500 * time.Millisecond

// mmvItems gives each MMV metric a fixed item number, so that its PMID
// stays the same from one pmie to the next.
var mmvItems = map[string]uint32{
	"rules": 1, "evaluations": 2, "outcomes.true": 3, "outcomes.false": 4, "outcomes.unknown": 5, "actions": 6,
	"rule.evaluations": 10, "rule.true": 11, "rule.false": 12, "rule.unknown": 13, "rule.actions": 14,
	"rule.eval_time": 15, "rule.last_eval_time": 16,
	"host.fetches": 20, "host.errors": 21, "host.fetch_time": 22, "host.last_fetch_time": 23, "host.up": 24,
	"receiver.sent": 30, "receiver.failed": 31, "receiver.dropped": 32, "receiver.queued": 33,
	"reloads.success": 40, "reloads.failure": 41,
	"lag": 7, "max_lag": 8,
	"fleet.members": 50, "fleet.named": 51, "fleet.shard": 52, "fleet.down": 53,
}

// mmvIndoms are the instance domains, by the label naming the instance.
var mmvIndoms = map[string]struct {
	serial      uint32
	short, help string
}{
	"rule":     {1, "pmie rules", "The rules pmie evaluates, by name."},
	"host":     {2, "pmie's hosts", "The hosts pmie fetches metrics from, by connection."},
	"receiver": {3, "pmie's alert receivers", "The receivers of pmie's alerts, by name."},
}

// mmvExport keeps pmie's metrics in an MMV file. The file is written
// again whenever its metrics' instances change (a reload); in between,
// only its values are updated, in place.
type mmvExport struct {
	d      *Daemon
	path   string
	mu     sync.Mutex
	later  *time.Timer // an update put off by mmvEvery
	file   *mmv.File
	layout string // the metrics and instances of the file written
	last   time.Time
	failed bool // writing failed: said once, not tried again
}

func newMMVExport(d *Daemon, name string) *mmvExport {
	dir := d.opt.MMVDir
	if dir == "" {
		dir = filepath.Join(pcpTmpDir(), "mmv")
	}
	m := &mmvExport{d: d, path: filepath.Join(dir, name)}
	m.update(true)
	return m
}

// update brings the file's values up to date (at most every mmvEvery,
// unless now: an update asked for sooner is made then), writing it again
// if its instances have changed.
func (m *mmvExport) update(now bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failed {
		return
	}
	t := m.d.opt.Now()
	if wait := mmvEvery - t.Sub(m.last); !now && wait > 0 {
		if m.later == nil {
			m.later = time.AfterFunc(wait, func() { m.update(true) })
		}
		return
	}
	if m.later != nil {
		m.later.Stop()
		m.later = nil
	}
	m.last = t
	fams := selfmetrics.Families(m.d.Snapshot(false))
	if key := mmvLayout(fams); key != m.layout || m.file == nil {
		if err := m.create(fams); err != nil {
			m.failed = true
			m.d.opt.Log(rules.Warning, "pmie: warning - cannot write the MMV file "+m.path+" (mmv."+filepath.Base(m.path)+
				" metrics): "+err.Error())
			return
		}
		m.layout = key
	}
	for _, f := range fams {
		if f.MMV == "" {
			continue
		}
		for i := range f.Samples {
			s := &f.Samples[i]
			if v, ok := m.file.Value(f.MMV, f.Instance(s)); ok {
				if f.Units == selfmetrics.Seconds {
					v.SetFloat64(s.Value)
				} else {
					v.SetUint64(uint64(s.Value))
				}
			}
		}
	}
}

// mmvLayout names the metrics and instances of the families.
func mmvLayout(fams []*selfmetrics.Family) string {
	var b strings.Builder
	for _, f := range fams {
		if f.MMV == "" {
			continue
		}
		b.WriteString(f.MMV)
		for i := range f.Samples {
			b.WriteByte(0)
			b.WriteString(f.Instance(&f.Samples[i]))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// create writes the file for the families' metrics and instances.
func (m *mmvExport) create(fams []*selfmetrics.Family) error {
	insts := map[string][]mmv.Instance{}
	seen := map[string]map[string]bool{}
	var metrics []mmv.Metric
	for _, f := range fams {
		if f.MMV == "" {
			continue
		}
		mt := mmv.Metric{Name: f.MMV, Item: mmvItems[f.MMV], Type: mmv.U64, Sem: mmv.Instant, Units: f.Units,
			Short: f.Help}
		if f.Counter {
			mt.Sem = mmv.Counter
		}
		if f.Units == selfmetrics.Seconds {
			mt.Type = mmv.Double
		}
		if mt.Short == "" {
			mt.Short = strings.ReplaceAll(f.MMV, ".", " ")
		}
		if f.Indom != "" {
			mt.Indom = mmvIndoms[f.Indom].serial
			if seen[f.Indom] == nil {
				seen[f.Indom] = map[string]bool{}
			}
			for i := range f.Samples {
				name := f.Instance(&f.Samples[i])
				if !seen[f.Indom][name] {
					seen[f.Indom][name] = true
					insts[f.Indom] = append(insts[f.Indom], mmv.Instance{ID: int32(len(insts[f.Indom])), Name: name})
				}
			}
		}
		metrics = append(metrics, mt)
	}
	var indoms []mmv.Indom
	for _, label := range []string{"rule", "host", "receiver"} {
		d := mmvIndoms[label]
		indoms = append(indoms, mmv.Indom{Serial: d.serial, Instances: insts[label], Short: d.short, Help: d.help})
	}
	f, err := mmv.Create(m.path, 0, metrics, indoms)
	if err != nil {
		return err
	}
	if m.file != nil {
		m.file.Close(true) // replaced by the new one
	}
	m.file = f
	return nil
}

// close removes the file.
func (m *mmvExport) close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failed = true // no more updates
	if m.later != nil {
		m.later.Stop()
	}
	if m.file != nil {
		m.file.Close(false)
		m.file = nil
	}
}

// pcpTmpDir is $PCP_TMP_DIR (internal/pcpconf: the environment, else
// pcp.conf, else Debian's).
func pcpTmpDir() string { return pcpconf.Get("PCP_TMP_DIR") }

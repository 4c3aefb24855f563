//go:build linux

package local

import (
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/gopcp/pmie/pmapi"
)

// Labels gives the label sets a local PCP context gives: the host's
// identity for the context, the PMDA's name for a domain, the kind of
// device for an instance domain, and each device's name for its instance.
func (c *Context) Labels(level pmapi.LabelFlag, id uint32) ([]pmapi.LabelSet, error) {
	switch level &^ pmapi.LabelOptional {
	case pmapi.LabelContext:
		return []pmapi.LabelSet{c.contextLabels()}, nil
	case pmapi.LabelDomain:
		agent := map[uint32]string{60: "linux", 3: "proc"}[pmapi.PMID(id).Domain()]
		if agent == "" {
			return nil, nil
		}
		return []pmapi.LabelSet{labelSet(pmapi.LabelDomain, "agent", jsonString(agent))}, nil
	case pmapi.LabelCluster:
		return nil, nil
	case pmapi.LabelItem:
		if !isAllCPU(pmapi.PMID(id)) {
			return nil, nil
		}
		return []pmapi.LabelSet{labelSet(pmapi.LabelItem, "device_type", jsonString("cpu"))}, nil
	case pmapi.LabelInDom:
		kind, name := indomKind(pmapi.InDom(id))
		if kind == "" {
			return nil, nil
		}
		return []pmapi.LabelSet{labelSet(pmapi.LabelInDom,
			"device_type", jsonString(kind), "indom_name", jsonString(name))}, nil
	case pmapi.LabelInstances:
		return c.instanceLabels(pmapi.InDom(id))
	}
	return nil, pmapi.ErrLabel
}

// isAllCPU says whether id is one of the kernel.all.cpu metrics, which
// the PMDA labels as about CPUs although they have no instance domain.
func isAllCPU(id pmapi.PMID) bool {
	if id.Domain() != 60 || id.Cluster() != 0 {
		return false
	}
	switch i := id.Item(); {
	case i >= 20 && i <= 23, i >= 53 && i <= 55:
		return true
	case i == 34, i == 35, i == 60, i == 78, i == 81, i == 82:
		return true
	}
	return false
}

// indomKind is the device type and description the linux PMDA labels an
// instance domain with.
func indomKind(indom pmapi.InDom) (kind, name string) {
	if indom.Domain() != 60 {
		return "", ""
	}
	switch indom.Serial() {
	case 0:
		return "cpu", "per cpu"
	case 1:
		return "block", "per disk"
	case 3:
		return "interface", "per interface"
	}
	return "", ""
}

func (c *Context) instanceLabels(indom pmapi.InDom) ([]pmapi.LabelSet, error) {
	d, _ := c.domain(indom)
	if d == nil {
		return nil, pmapi.ErrInDom
	}
	var key string
	switch indom.Serial() {
	case 0:
		key = "cpu"
	case 1:
		key = "device_name"
	case 3:
		key = "interface"
	default:
		return nil, nil
	}
	insts, err := c.InDom(indom)
	if err != nil {
		return nil, err
	}
	sets := make([]pmapi.LabelSet, 0, len(insts))
	for _, in := range insts {
		v := jsonString(in.Name)
		if key == "cpu" {
			v = strconv.Itoa(int(in.ID))
		}
		s := labelSet(pmapi.LabelInstances, key, v)
		s.Inst = in.ID
		sets = append(sets, s)
	}
	return sets, nil
}

// contextLabels are the labels of a local context: hostname, domain name
// and machine id, and the user and group of the process, which are
// optional.
func (c *Context) contextLabels() pmapi.LabelSet {
	domain := c.readLine("/proc/sys/kernel/domainname")
	if domain == "" || domain == "(none)" {
		domain = "localdomain"
	}
	machine := c.readLine("/etc/machine-id")
	if machine == "" {
		machine = "localmachine"
	}
	s := labelSet(pmapi.LabelContext,
		"hostname", jsonString(c.host),
		"domainname", jsonString(domain),
		"machineid", jsonString(machine))
	opt := pmapi.LabelContext | pmapi.LabelOptional
	s.Labels = append(s.Labels,
		pmapi.Label{Name: "groupid", Value: strconv.Itoa(os.Getgid()), Flags: opt},
		pmapi.Label{Name: "userid", Value: strconv.Itoa(os.Getuid()), Flags: opt})
	sort.Slice(s.Labels, func(i, j int) bool { return s.Labels[i].Name < s.Labels[j].Name })
	return s
}

// readLine is the first line of a small file under the collector's root.
func (c *Context) readLine(path string) string {
	b, err := os.ReadFile(c.root + path)
	if err != nil {
		return ""
	}
	line, _ := nextLine(b)
	return strings.TrimSpace(string(line))
}

// labelSet makes a set from name, value pairs, sorted by name.
func labelSet(flags pmapi.LabelFlag, kv ...string) pmapi.LabelSet {
	s := pmapi.LabelSet{Inst: pmapi.InNull}
	for i := 0; i+1 < len(kv); i += 2 {
		s.Labels = append(s.Labels, pmapi.Label{Name: kv[i], Value: kv[i+1], Flags: flags})
	}
	sort.Slice(s.Labels, func(i, j int) bool { return s.Labels[i].Name < s.Labels[j].Name })
	return s
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

package pmapi

import "fmt"

// PMID identifies a metric: a domain (9 bits), a cluster (12 bits) and an
// item (10 bits), as packed by libpcp.
type PMID uint32

// PMIDNull is PM_ID_NULL, the identifier of no metric.
const PMIDNull PMID = 0xffffffff

// NewPMID packs domain, cluster and item into a PMID.
func NewPMID(domain, cluster, item uint32) PMID {
	return PMID((domain&0x1ff)<<22 | (cluster&0xfff)<<10 | item&0x3ff)
}

// Domain is the PMDA domain number of id.
func (id PMID) Domain() uint32 { return uint32(id) >> 22 & 0x1ff }

// Cluster is the cluster number of id.
func (id PMID) Cluster() uint32 { return uint32(id) >> 10 & 0xfff }

// Item is the item number of id.
func (id PMID) Item() uint32 { return uint32(id) & 0x3ff }

// String formats id as pmIDStr does: "60.2.0", "PM_ID_NULL", or for the
// root of a dynamic subtree of a namespace (domain 511, item 0) its
// PMDA's domain, "60.*.*".
func (id PMID) String() string {
	if id == PMIDNull {
		return "PM_ID_NULL"
	}
	if id.Domain() == 511 && id.Item() == 0 {
		return fmt.Sprintf("%d.*.*", id.Cluster())
	}
	return fmt.Sprintf("%d.%d.%d", id.Domain(), id.Cluster(), id.Item())
}

// InDom identifies an instance domain: a domain (9 bits) and a serial
// number (22 bits).
type InDom uint32

// InDomNull is PM_INDOM_NULL, the instance domain of singular metrics.
const InDomNull InDom = 0xffffffff

// NewInDom packs domain and serial into an InDom.
func NewInDom(domain, serial uint32) InDom {
	return InDom((domain&0x1ff)<<22 | serial&0x3fffff)
}

// Domain is the PMDA domain number of d.
func (d InDom) Domain() uint32 { return uint32(d) >> 22 & 0x1ff }

// Serial is the serial number of d within its domain.
func (d InDom) Serial() uint32 { return uint32(d) & 0x3fffff }

// String formats d as pmInDomStr does: "60.2", or "PM_INDOM_NULL".
func (d InDom) String() string {
	if d == InDomNull {
		return "PM_INDOM_NULL"
	}
	return fmt.Sprintf("%d.%d", d.Domain(), d.Serial())
}

// InNull is PM_IN_NULL, the instance number of a singular value.
const InNull int32 = -1

// Instance is one member of an instance domain.
type Instance struct {
	ID   int32
	Name string
}

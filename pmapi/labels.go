package pmapi

// LabelFlag is a label's place in the label hierarchy, and whether it is
// optional (PM_LABEL_*).
type LabelFlag uint8

// The levels of the label hierarchy, lowest precedence first, and the
// optional flag.
const (
	LabelContext   LabelFlag = 1 << 0
	LabelDomain    LabelFlag = 1 << 1
	LabelInDom     LabelFlag = 1 << 2
	LabelCluster   LabelFlag = 1 << 3
	LabelItem      LabelFlag = 1 << 4
	LabelInstances LabelFlag = 1 << 5
	LabelCompound  LabelFlag = 1 << 6
	LabelOptional  LabelFlag = 1 << 7
)

// Label is one name:value pair. Value is JSON text (a string keeps its
// quotes).
type Label struct {
	Name  string
	Value string
	Flags LabelFlag
}

// LabelSet is the labels of one entity (pmLabelSet): the context, a domain,
// an instance domain, a cluster, an item, or one instance. Labels are sorted
// by name, as in PCP's JSONB form.
type LabelSet struct {
	Inst   int32 // InNull unless the set belongs to an instance
	Labels []Label
}

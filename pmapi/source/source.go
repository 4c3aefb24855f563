package source

import (
	"github.com/gopcp/pmie/pmapi"
	"github.com/gopcp/pmie/pmapi/archive"
	"github.com/gopcp/pmie/pmapi/local"
	"github.com/gopcp/pmie/pmapi/pmcd"
)

// Spec names a source as a user does: an archive (or a list or directory
// of them, as -a takes them), a pmcd host specification (as -h takes it;
// "local:" is pmcd on this machine, and "" names no host, as
// pmNewContext has it), or the embedded collector.
type Spec struct {
	Kind pmapi.SourceKind
	Name string // the archive or host specification; unused for SourceLocal
}

// Archive, Host and Embedded name sources.
func Archive(name string) Spec { return Spec{Kind: pmapi.SourceArchive, Name: name} }

// Host names the pmcd at a host specification.
func Host(spec string) Spec { return Spec{Kind: pmapi.SourceHost, Name: spec} }

// Embedded names the embedded collector.
func Embedded() Spec { return Spec{Kind: pmapi.SourceLocal} }

// String is the spec as a user would write it: the archive or host
// specification, or "local context" for the embedded collector.
func (s Spec) String() string {
	if s.Kind == pmapi.SourceLocal {
		return "local context"
	}
	return s.Name
}

// Opener opens sources. Its zero value opens them as libpcp does by
// default (settings from the environment); it may be shared by goroutines.
type Opener struct {
	// PMCD configures connections to pmcd (timeouts, reconnection).
	PMCD pmcd.Config
	// Local configures the embedded collector.
	Local local.Options
	// Archive, if set, replaces the archive settings libpcp takes from
	// the environment ($PCP_COUNTER_WRAP, $PCP_IGNORE_MARK_RECORDS).
	Archive *archive.Options
}

// Open opens the source s names.
func (o *Opener) Open(s Spec) (pmapi.Context, error) {
	switch s.Kind {
	case pmapi.SourceArchive:
		var c *archive.Context
		var err error
		if o.Archive != nil {
			c, err = archive.Open(s.Name, *o.Archive)
		} else {
			c, err = archive.Open(s.Name)
		}
		if err != nil {
			return nil, err
		}
		return c, nil
	case pmapi.SourceLocal:
		c, err := local.Open(o.Local)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	c, err := pmcd.Dial(s.Name, o.PMCD)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// OpenLike opens s as Open does, but when like, a context already open on
// the same archives, can make another more cheaply, asks it instead
// (archive.Context.Reopen: the new context shares its metadata). like
// may be nil.
func (o *Opener) OpenLike(s Spec, like pmapi.Context) (pmapi.Context, error) {
	if a, ok := like.(*archive.Context); ok && s.Kind == pmapi.SourceArchive && a.Source().Name == s.Name {
		c, err := a.Reopen()
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return o.Open(s)
}

// LocalDefault opens what a live command reads on this machine when it is
// named no source, as pmie does: pmcd on this machine (local:) if one
// answers, else the embedded collector. embedded says which it opened.
func (o *Opener) LocalDefault() (ctx pmapi.Context, embedded bool, err error) {
	if ctx, err = o.Open(Host("local:")); err == nil {
		return ctx, false, nil
	}
	ctx, err = o.Open(Embedded())
	return ctx, true, err
}

// ArchiveOptions adjust the archive contexts an Opener opens (see
// Opener.Archive), as archive.Options.
type ArchiveOptions = archive.Options

// Damage is the error that says where an archive is damaged: the file,
// the part of the archive (a data volume, the metadata or the temporal
// index) and the byte offset, as archive.FormatError. Commands print
// PCP's one-line message for its code, and may add this detail.
type Damage = archive.FormatError

module github.com/gopcp/pmie

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/ulikunitz/xz v0.5.17
)

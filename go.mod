module github.com/gopcp/pmie

go 1.26

require github.com/ulikunitz/xz v0.5.17

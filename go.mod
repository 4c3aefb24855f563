module github.com/gopcp/pmie

go 1.26

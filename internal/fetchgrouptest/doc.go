// Package fetchgrouptest holds the tests that compare pmapi/fetchgroup
// with libpcp's own fetchgroups, line by line, over the scenarios and
// goldens of testdata/golden/fetchgroup. They live here rather than in
// pmapi/fetchgroup because some scenarios use derived metrics, and pmapi
// may not import derive.
package fetchgrouptest

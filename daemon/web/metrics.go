package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gopcp/pmie/daemon/selfmetrics"
)

// serveMetrics answers /metrics with prometheus/client_golang's handler
// (the text format, or another that the scraper asks for, compressed if
// it accepts that), over the families of a snapshot taken for the
// request.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	snap, ok := s.snapshot(w, r)
	if !ok {
		return
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(families(selfmetrics.Families(snap)))
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}).ServeHTTP(w, r)
}

// families is a prometheus.Collector of pmie's metric families. It is
// unchecked (it describes nothing in advance): what it collects follows
// pmie's rules, hosts and receivers. Families of one name share the HELP
// of the first that has one.
type families []*selfmetrics.Family

func (families) Describe(chan<- *prometheus.Desc) {}

func (fs families) Collect(ch chan<- prometheus.Metric) {
	help := map[string]string{}
	for _, f := range fs {
		if help[f.Name] == "" {
			help[f.Name] = f.Help
		}
	}
	for _, f := range fs {
		typ := prometheus.GaugeValue
		if f.Counter {
			typ = prometheus.CounterValue
		}
		var desc *prometheus.Desc
		var names []string
		for _, s := range f.Samples {
			n, values := splitLabels(s.Labels)
			if desc == nil || !slices.Equal(n, names) {
				desc, names = prometheus.NewDesc(f.Name, help[f.Name], n, nil), n
			}
			m, err := prometheus.NewConstMetric(desc, typ, s.Value, values...)
			if err != nil {
				m = prometheus.NewInvalidMetric(desc, err)
			}
			ch <- m
		}
	}
}

// splitLabels parts a sample's name, value pairs, making the values valid
// UTF-8 (rule names come from files, instance names from hosts).
func splitLabels(pairs []string) (names, values []string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		names = append(names, pairs[i])
		values = append(values, strings.ToValidUTF8(pairs[i+1], "\uFFFD"))
	}
	return names, values
}

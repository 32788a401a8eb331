package metrics

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/muster-games/muster/arena"
)

// TestMomentsMerge: values counted in parts and merged give the mean and
// interval of all of them counted at once.
func TestMomentsMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var vals []float64
	var parts [3]Moments
	for i := 0; i < 1000; i++ {
		v := 1e6 + r.NormFloat64()*3 // a large mean and a small spread
		vals = append(vals, v)
		parts[i%3].Add(v)
	}
	var merged Moments
	for _, p := range parts {
		merged.Merge(p)
	}
	// The two-pass mean and standard deviation.
	mean := 0.0
	for _, v := range vals {
		mean += v
	}
	mean /= float64(len(vals))
	ss := 0.0
	for _, v := range vals {
		ss += (v - mean) * (v - mean)
	}
	h := 1.96 * math.Sqrt(ss/float64(len(vals)-1)) / math.Sqrt(float64(len(vals)))
	got := merged.Interval()
	if math.Abs(got.P-mean) > 1e-9 || math.Abs((got.Hi-got.Lo)/2-h) > 1e-9 {
		t.Fatalf("merged %+v, want mean %v ± %v", got, mean, h)
	}
	if (Moments{}).Interval() != (Mean{}) {
		t.Fatal("no values: not zero")
	}
}

// TestMedianFromCounts: the median of games counted by length is that of
// the lengths written out.
func TestMedianFromCounts(t *testing.T) {
	for _, c := range []struct {
		lengths []int
		want    float64
	}{
		{[]int{5}, 5},
		{[]int{10, 20, 30, 40}, 25},
		{[]int{3, 3, 3, 9}, 3},
		{[]int{1, 7, 7, 8, 100}, 7},
		{[]int{2, 2, 4, 4}, 3},
	} {
		counts := map[int]int{}
		for _, n := range c.lengths {
			counts[n]++
		}
		if got := median(counts, len(c.lengths)); got != c.want {
			t.Errorf("median of %v: %v, want %v", c.lengths, got, c.want)
		}
	}
}

// TestShardsMergeToTheWhole: a study read in shards, each shard's tallies
// written as a partial and the partials merged (in another order), gives
// the report of the whole read at once, every metric to the printed digit;
// a partial and a results file merge too.
func TestShardsMergeToTheWhole(t *testing.T) {
	var out bytes.Buffer
	cfg := arena.EvalConfig{Specs: []string{"tablut(linnaeus)", "lanrick(1893)"}, Agents: [2]string{"alphabeta(depth=1)", "random"}, Games: 6, Seed: 5, Workers: 2, Opening: 2}
	if err := arena.Eval(context.Background(), cfg, nil, &out, nil); err != nil {
		t.Fatal(err)
	}
	results := out.Bytes()
	whole := NewStudy()
	if err := whole.ReadResults(bytes.NewReader(results), true); err != nil {
		t.Fatal(err)
	}
	if whole.Games() != 12 {
		t.Fatalf("%d games read, want 12", whole.Games())
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(results)), "\n")
	var partials [3]bytes.Buffer
	for k := range partials {
		var shard strings.Builder
		for i := k; i < len(lines); i += 3 {
			shard.WriteString(lines[i])
		}
		s := NewStudy()
		if err := s.ReadResults(strings.NewReader(shard.String()), true); err != nil {
			t.Fatal(err)
		}
		if err := s.WritePartial(&partials[k]); err != nil {
			t.Fatal(err)
		}
		if !IsPartial(partials[k].Bytes()) {
			t.Fatalf("partial %d not known as one: %.60s", k, partials[k].String())
		}
	}
	if IsPartial(results) {
		t.Fatal("a results file taken for a partial")
	}
	merged := NewStudy()
	for _, k := range []int{2, 0, 1} {
		if err := merged.ReadPartial(bytes.NewReader(partials[k].Bytes())); err != nil {
			t.Fatal(err)
		}
	}
	report := func(s *Study) string {
		var b bytes.Buffer
		Markdown(&b, s.Groups(), nil)
		return b.String()
	}
	want := report(whole)
	if got := report(merged); got != want {
		t.Fatalf("the merged partials' report differs from the whole's:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(want, "| lead change | ") || !strings.Contains(want, "games evaluated | 6 of 6") {
		t.Fatalf("the report lacks its state metrics:\n%s", want)
	}
	// Two partials and the third shard's results.
	mixed := NewStudy()
	mixed.ReadPartial(bytes.NewReader(partials[0].Bytes()))
	mixed.ReadPartial(bytes.NewReader(partials[1].Bytes()))
	var shard strings.Builder
	for i := 2; i < len(lines); i += 3 {
		shard.WriteString(lines[i])
	}
	if err := mixed.ReadResults(strings.NewReader(shard.String()), true); err != nil {
		t.Fatal(err)
	}
	if got := report(mixed); got != want {
		t.Fatalf("partials and results merged differ from the whole:\n%s", got)
	}
	// The same games summarized from a slice: the same report.
	all, err := Read(bytes.NewReader(results))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	Markdown(&b, Summarize(all), nil)
	if b.String() != want {
		t.Fatal("Summarize differs from the study read a line at a time")
	}
}

// TestPartialErrors: a partial that is not one is an error that says why.
func TestPartialErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"partial":"something else","version":1,"groups":[]}`, "not a partial"},
		{`{"partial":"muster report partial","version":2,"groups":[]}`, "version 2"},
		{`{"partial":"muster report partial","version":1,"groups":[{"games":1}]}`, "no game string"},
		{`{"partial":"muster report partial","version":1,"groups":[{"spec":"tablut","games":1,"lengths":{"3":1}},{"spec":"tablut","games":1,"lengths":{"3":1}}]}`, "twice"},
		{`{"partial":"muster report partial","version":1,"groups":[{"spec":"tablut","games":2,"lengths":{"3":1}}]}`, "its lengths 1"},
		{`{"partial":"muster report partial","version":1,"groups":[{"spec":"tablut","games":0,"lengths":{"3":-1}}]}`, "counts -1 games"},
		{`{"partial":"muster report partial","version":1,"groupz":[]}`, "unknown field"},
		{`{"partial":`, "unexpected EOF"},
	} {
		err := NewStudy().ReadPartial(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.in, err, c.want)
		}
	}
}

// FuzzReadPartial: whatever a partial holds, reading it and reporting it
// never crash.
func FuzzReadPartial(f *testing.F) {
	s := NewStudy()
	s.add(measure(arena.Line{Spec: "tablut(linnaeus)", Agents: [2]string{"a", "b"}, Players: [2]string{"A", "B"}, WinnerAgent: "A", Length: 3, Record: "1. a4-a3 e3-d3\n"}, true))
	var b bytes.Buffer
	s.WritePartial(&b)
	f.Add(b.String())
	f.Add(`{"partial":"muster report partial","version":1,"groups":[{"spec":"x","games":1,"lengths":{"0":1},"states":{"games":1}}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		s := NewStudy()
		if s.ReadPartial(strings.NewReader(in)) != nil {
			return
		}
		var out bytes.Buffer
		Markdown(&out, s.Groups(), nil)
	})
}

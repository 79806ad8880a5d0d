package verify_test

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mut2cel/mut2cel/testkit/testcrd"
	"github.com/mut2cel/mut2cel/translate"
	"github.com/mut2cel/mut2cel/verify"
)

// TestMemoryIndependentOfPairs verifies an example with n and with 8n
// pairs: pairs are generated and judged in batches and only counts and
// the first pair of each group are kept, so neither the heap that the
// report holds nor the largest heap seen during the run may grow with
// the pairs. A report that kept every pair would grow eightfold.
func TestMemoryIndependentOfPairs(t *testing.T) {
	// The peak is sampled: at the command's target (GCPercent, which
	// TestMain sets) garbage of up to four times the live heap hides the
	// growth this test looks for, and when the collector runs decides the
	// peak. The default target keeps the peak near what is live.
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	declared := testcrd.ReadFile(t, "../examples/ports.yaml")
	translated := testcrd.ReadFile(t, "../examples/translated/ports.yaml")
	const n = 512
	kept1, peak1 := heapOf(t, declared, translated, n)
	kept8, peak8 := heapOf(t, declared, translated, 8*n)
	t.Logf("%d pairs: %d bytes kept, %d at most; %d pairs: %d kept, %d at most", n, kept1, peak1, 8*n, kept8, peak8)
	const slack = 2 << 20 // the garbage collector's own variation
	if kept8 > 2*kept1+slack {
		t.Errorf("the report of %d pairs holds %d bytes, of %d pairs %d: it grows with the pairs", 8*n, kept8, n, kept1)
	}
	if peak8 > 2*peak1+slack {
		t.Errorf("the heap peaked at %d bytes for %d pairs, at %d for %d: it grows with the pairs", peak8, 8*n, peak1, n)
	}
}

// heapOf verifies with the given number of pairs and returns the heap the
// report holds afterwards and the largest heap sampled during the run,
// both above the heap before it.
func heapOf(t *testing.T, declared, translated map[string]interface{}, pairs int) (kept, peak uint64) {
	t.Helper()
	base := liveHeap()
	var max uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > max {
				max = ms.HeapAlloc
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	rep, err := verify.Verify(declared, translated, verify.Options{Pairs: pairs, Seed: 1, Workers: 2})
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	after := liveHeap()
	runtime.KeepAlive(rep)
	kept = after - min(base, after)
	return kept, max - min(base, max)
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkManyDeclarations verifies 64 pairs of a CRD whose spec has n
// declared fields, reporting the allocations per pair. The apiserver's
// CEL evaluation builds the map of an object's property schemas anew on
// every field lookup, so the garbage per pair grows with the square of
// the declarations on one node, while the live heap stays small: the
// command collects by a soft limit (limits.VerifyHeap) for that reason.
func BenchmarkManyDeclarations(b *testing.B) {
	for _, n := range []int{10, 30, 100} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var s strings.Builder
			s.WriteString("{type: object, properties: {spec: {type: object, properties: {")
			for i := range n {
				fmt.Fprintf(&s, "f%d: {type: integer, x-kubernetes-mutability: Immutable}, ", i)
			}
			s.WriteString("}}}}")
			declared := testcrd.WithSchema(b, s.String())
			res, err := translate.Translate(declared, translate.Options{})
			if err != nil {
				b.Fatal(err)
			}
			const pairs = 64
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if _, err := verify.Verify(declared, res.Translated, verify.Options{Pairs: pairs, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N*pairs), "B/pair")
		})
	}
}

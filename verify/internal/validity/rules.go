package validity

import (
	"context"
	"math"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
)

// The rules on create, evaluated node by node: at each node whose rules
// act on create, its shallow validator, on the node's value. The
// apiserver's validator of the whole object evaluates the same rules on
// the same values, node by node, and its errors and cost are the sums of
// theirs, as long as the budget holds out; where the sum comes near it,
// or a rule stops the evaluation of the others, the caller validates the
// object whole.

// wholeRules evaluates the rules of s and below on v.
func (c *diffing) wholeRules(s *snode, v interface{}) {
	if s == nil || s.cv == nil || v == nil || !c.ok {
		return
	}
	if s.shallow != nil {
		c.rules(s, v)
	}
	switch x := v.(type) {
	case map[string]interface{}:
		if len(s.props) == 0 && s.addl == nil {
			return
		}
		for k, e := range x {
			cs, kind := s.child(k)
			if cs == nil || cs.cv == nil {
				continue
			}
			c.path = append(c.path, step{name: k, kind: kind})
			c.wholeRules(cs, e)
			c.path = c.path[:len(c.path)-1]
		}
	case []interface{}:
		if s.items == nil || s.items.cv == nil {
			return
		}
		for i, e := range x {
			c.path = append(c.path, step{index: i, kind: 'i'})
			c.wholeRules(s.items, e)
			c.path = c.path[:len(c.path)-1]
		}
	}
}

// rules evaluates the rules of the node s itself (its shallow validator)
// on v, on create. A value that passed them before at a node passes
// them again, at the same cost: what rules read is the value alone.
func (c *diffing) rules(s *snode, v interface{}) {
	if s.shallow == nil || v == nil || !c.ok {
		return
	}
	key, keyed := s.memo.key(v)
	if keyed {
		if cost, ok := s.memo.get(key); ok {
			c.cost += cost
			return
		}
	}
	errs, remaining := s.shallow.Validate(context.Background(), c.fieldPath(), nil, v, nil, budget)
	if remaining < 0 {
		c.ok = false // the budget ran out, or a rule stopped the others
		return
	}
	cost := budget - remaining
	c.cost += cost
	if len(errs) > 0 {
		c.errs = append(c.errs, errs...)
	} else if keyed {
		s.memo.put(key, cost)
	}
}

// memo holds the values that passed the rules of one node, and their
// cost, up to memoSize of them.
type memo struct {
	mu sync.Mutex
	m  map[string]int64
	// tries and long count the values keyed, and those too large to be:
	// at a node whose values are mostly too large (a whole object, a
	// pod template), keying stops, as it costs more than it saves.
	tries, long atomic.Int64
}

const (
	memoSize = 4096
	// memoKeyMax bounds the key of a value, in bytes: a larger value is
	// evaluated every time.
	memoKeyMax = 512
	// memoTrial is the number of values keyed at a node before keying
	// may stop there.
	memoTrial = 64
)

// key is memoKey(v), or false once most values of the node were too
// large for a key.
func (m *memo) key(v interface{}) (string, bool) {
	tries, long := m.tries.Load(), m.long.Load()
	if tries >= memoTrial && 4*long >= 3*tries {
		return "", false
	}
	key, ok := memoKey(v)
	m.tries.Add(1)
	if !ok {
		m.long.Add(1)
	}
	return key, ok
}

func (m *memo) get(key string) (int64, bool) {
	m.mu.Lock()
	cost, ok := m.m[key]
	m.mu.Unlock()
	return cost, ok
}

func (m *memo) put(key string, cost int64) {
	m.mu.Lock()
	if m.m == nil {
		m.m = map[string]int64{}
	}
	if len(m.m) < memoSize {
		m.m[key] = cost
	}
	m.mu.Unlock()
}

// memoKey renders v as a key that tells apart every two values a rule
// could tell apart: keys sorted, strings quoted, and numbers with their
// Go type (CEL reads 1 as an int, 1.0 as a double); false when the key
// would pass memoKeyMax or v holds another Go type.
func memoKey(v interface{}) (string, bool) {
	var buf [memoKeyMax]byte
	b, ok := appendKey(buf[:0], v)
	if !ok || len(b) > memoKeyMax {
		return "", false
	}
	return string(b), true
}

func appendKey(b []byte, v interface{}) ([]byte, bool) {
	if len(b) > memoKeyMax {
		return b, false
	}
	switch x := v.(type) {
	case nil:
		return append(b, 'n'), true
	case bool:
		if x {
			return append(b, 't'), true
		}
		return append(b, 'f'), true
	case string:
		return strconv.AppendQuote(append(b, 's'), x), true
	case int64:
		return strconv.AppendInt(append(b, 'i'), x, 10), true
	case float64:
		return strconv.AppendUint(append(b, 'd'), math.Float64bits(x), 16), true
	case []interface{}:
		b = append(b, '[')
		for _, e := range x {
			var ok bool
			if b, ok = appendKey(b, e); !ok {
				return b, false
			}
			b = append(b, ',')
		}
		return append(b, ']'), true
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for _, k := range keys {
			b = strconv.AppendQuote(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendKey(b, x[k]); !ok {
				return b, false
			}
			b = append(b, ',')
		}
		return append(b, '}'), true
	}
	return b, false
}

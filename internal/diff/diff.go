package diff

// maxCost bounds the edit distance searched in one region, so that a
// document rewritten throughout costs time linear in its size.
const maxCost = 4096

// op is one line of the edit script.
type op struct {
	kind byte // ' ', '-' or '+'
	a, b int  // line index in a (for ' ' and '-') and in b (for ' ' and '+')
}

// differ computes which lines of a are deleted and which of b inserted.
type differ struct {
	a, b       []string
	delA, insB []bool
	vf, vb     []int // scratch space of middle
}

// lines compares two files line by line.
func lines(a, b []string) []op {
	d := &differ{a: a, b: b, delA: make([]bool, len(a)), insB: make([]bool, len(b))}
	d.compare(0, len(a), 0, len(b))
	var ops []op
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && d.delA[i]:
			ops = append(ops, op{'-', i, j})
			i++
		case j < len(b) && d.insB[j]:
			ops = append(ops, op{'+', i, j})
			j++
		default:
			ops = append(ops, op{' ', i, j})
			i, j = i+1, j+1
		}
	}
	return ops
}

// compare marks the differences between a[aLo:aHi] and b[bLo:bHi].
func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		aLo, bLo = aLo+1, bLo+1
	}
	for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
		aHi, bHi = aHi-1, bHi-1
	}
	if aLo == aHi || bLo == bHi {
		d.replace(aLo, aHi, bLo, bHi)
		return
	}
	x, y, ok := d.middle(aLo, aHi, bLo, bHi)
	if !ok || (x == aLo && y == bLo) || (x == aHi && y == bHi) {
		d.replace(aLo, aHi, bLo, bHi)
		return
	}
	d.compare(aLo, x, bLo, y)
	d.compare(x, aHi, y, bHi)
}

func (d *differ) replace(aLo, aHi, bLo, bHi int) {
	for i := aLo; i < aHi; i++ {
		d.delA[i] = true
	}
	for j := bLo; j < bHi; j++ {
		d.insB[j] = true
	}
}

// middle finds a point (x, y) on a shortest edit path through the region
// by searching forward from its start and backward from its end until the
// two searches meet (Myers 1986, section 4b). vf[k] is the furthest x
// reached forward on diagonal k = x-y; vb[k] the furthest distance from
// the end reached backward on diagonal k counted from the end.
func (d *differ) middle(aLo, aHi, bLo, bHi int) (int, int, bool) {
	n, m := aHi-aLo, bHi-bLo
	delta := n - m
	limit := min((n+m+1)/2, maxCost)
	off := limit + 1
	if need := 2*limit + 3; len(d.vf) < need {
		d.vf, d.vb = make([]int, need), make([]int, need)
	}
	vf, vb := d.vf[:2*limit+3], d.vb[:2*limit+3]
	for i := range vf {
		vf[i], vb[i] = -1, -1
	}
	vf[off+1], vb[off+1] = 0, 0
	for c := 0; c <= limit; c++ {
		for k := -c; k <= c; k += 2 {
			x := vf[off+k+1]
			if k != -c && (k == c || vf[off+k-1] >= vf[off+k+1]) {
				x = vf[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && d.a[aLo+x] == d.b[bLo+y] {
				x, y = x+1, y+1
			}
			vf[off+k] = x
			if kb := delta - k; delta%2 != 0 && kb >= -(c-1) && kb <= c-1 && vb[off+kb] >= 0 && x+vb[off+kb] >= n {
				return aLo + x, bLo + y, true
			}
		}
		for kb := -c; kb <= c; kb += 2 {
			x := vb[off+kb+1]
			if kb != -c && (kb == c || vb[off+kb-1] >= vb[off+kb+1]) {
				x = vb[off+kb-1] + 1
			}
			y := x - kb
			for x < n && y < m && d.a[aHi-1-x] == d.b[bHi-1-y] {
				x, y = x+1, y+1
			}
			vb[off+kb] = x
			if k := delta - kb; delta%2 == 0 && k >= -c && k <= c && vf[off+k] >= 0 && x+vf[off+k] >= n {
				return aHi - x, bHi - y, true
			}
		}
	}
	return 0, 0, false
}

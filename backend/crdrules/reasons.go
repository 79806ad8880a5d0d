package crdrules

import (
	"fmt"
	"strings"

	"github.com/mut2cel/mut2cel/internal/diag"
)

// reasons are every reason found why one declaration has no exact rule,
// in the order found, each once. The generators go on past a reason to
// the parts they have not read yet and join what they find
// (joinReasons), so that one run names every node that stands in the
// way, not only the first: a user who fixes one and runs again should
// not meet the next.
type reasons []*inexpressible

func (r reasons) Error() string {
	details := make([]string, len(r))
	for i, e := range r {
		details[i] = e.detail
	}
	return strings.Join(details, "; ")
}

// joinReasons joins the reasons among errs, nil when there is none. An
// error that is no reason, an internal one or errVacuous, decides alone
// and is returned as it is: the first such wins.
func joinReasons(errs ...error) error {
	var only error
	for _, err := range errs {
		switch {
		case err == nil:
		case only == nil:
			only = err
		default:
			return joinAll(errs)
		}
	}
	return only // nil, or the one error, as it is: most joins fold nothing into something
}

// joinAll is joinReasons of several errors.
func joinAll(errs []error) error {
	var out reasons
	add := func(e *inexpressible) {
		for _, have := range out {
			if *have == *e {
				return
			}
		}
		out = append(out, e)
	}
	for _, err := range errs {
		switch e := err.(type) {
		case nil:
		case reasons:
			for _, r := range e {
				add(r)
			}
		case *inexpressible:
			if e == errVacuous {
				return e
			}
			add(e)
		default:
			return err
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// reasonsOf lists the reasons err carries, if it carries only reasons.
func reasonsOf(err error) (reasons, bool) {
	switch e := err.(type) {
	case reasons:
		return e, true
	case *inexpressible:
		return reasons{e}, e != errVacuous
	}
	return nil, false
}

// oneVersionRequirement merges the reasons that lists need index
// iteration into one, put first: they have one remedy, a newer target,
// which a reader should see before the nodes, and one line each would
// crowd out the other reasons.
func (r reasons) oneVersionRequirement() reasons {
	var lists []string
	var others reasons
	for _, e := range r {
		if e.reason == diag.ReasonIndexComparison {
			lists = append(lists, e.node)
		} else {
			others = append(others, e)
		}
	}
	if len(lists) == 0 {
		return r
	}
	return append(reasons{{reason: diag.ReasonIndexComparison, detail: indexIterationDetail(lists)}}, others...)
}

// andList renders "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// errInexpressible refuses a declaration for every reason found; the
// first reason classifies the problem.
func errInexpressible(rs reasons) diag.Diagnostic {
	rs = rs.oneVersionRequirement()
	p := diag.Diagnostic{Type: diag.Forbidden, Reason: rs[0].reason}
	if p.Reason == diag.ReasonIndexComparison {
		p.Hint = diag.HintIndexBound // a bound, or a newer target that compares by index
	}
	if len(rs) == 1 {
		p.Detail = "cannot be translated exactly: " + rs[0].detail
		return p
	}
	p.Detail = fmt.Sprintf("cannot be translated exactly, for %d reasons:", len(rs))
	for _, r := range rs {
		p.Reasons = append(p.Reasons, r.detail)
	}
	return p
}

func ignoreVacuous(err error) error {
	if err == errVacuous {
		return nil
	}
	return err
}

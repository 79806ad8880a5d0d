package component

import "flag"

func flagUpdate() *bool {
	return flag.Bool("update", false, "rewrite the golden files under testdata/")
}

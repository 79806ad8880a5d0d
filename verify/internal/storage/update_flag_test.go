package storage

// The module's -update flag: go test ./... -update passes it to every
// test binary, and one that does not define it stops.
import _ "github.com/mut2cel/mut2cel/testkit/golden"

package verify

import "errors"

// ErrInvalidPair is returned, wrapped, by a Judge that cannot decide an
// update by its rules because the server refuses the pair on other grounds:
// the old object cannot be created, or the new one fails the schema. Such a
// pair is counted in VersionReport.Invalid, as one the in-process judge
// would be given but the apiserver never judges by its rules; it is neither
// a denial nor a failure of the run.
var ErrInvalidPair = errors.New("the server refuses the pair whatever its rules say")

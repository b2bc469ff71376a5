package api

import _ "embed"

// KnownOmissions is api/known-omissions.yaml as it was when the module was
// built: the reviewed list of operations some published listings leave out,
// which specdiff reports as known omissions rather than drift.
//
//go:embed known-omissions.yaml
var KnownOmissions []byte

//go:build lazydata

package openapi

import _ "embed"

// linked is patch.json: openapi.json cut down to what strategic merge patches read (see
// TestPatchDocumentsAreOpenAPIsCutDown); the page fetches the rest and hands it to Load.
//
//go:embed patch.json
var linked []byte

const linkedDescribed = false

//go:build !lazydata

package openapi

import _ "embed"

// linked is openapi.json: the documents whole, with the descriptions kubectl explain prints.
//
//go:embed openapi.json
var linked []byte

const linkedDescribed = true

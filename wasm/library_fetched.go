//go:build js && wasm && lazydata

package main

import (
	"daemonlab/core/playground"
	"daemonlab/lessons"
)

// lib is what the playground is made of: the start manifest, linked in, and the lessons, which
// the page's build (tag lazydata) fetches as lessons.json after the first paint.
var lib = playground.NewLibraryLater(lessons.Start, lessons.BuiltIn)

// fetched are the data assets the page fetches (see playground.AssetMsg).
var fetched = playground.Assets

//go:build js && wasm && !lazydata

package main

import (
	"daemonlab/core/playground"
	"daemonlab/lessons"
)

// lib is what the playground is made of: the start manifest and the lessons, linked in (the
// tests under Node build the page so).
var lib = playground.NewLibrary(lessons.Start, lessons.Files, lessons.Challenges, lessons.BuiltIn)

// fetched are the data assets the page fetches: none, all are linked in.
var fetched []string

//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains itself when the package is built for the host; the page needs GOOS=js GOARCH=wasm.
func main() {
	fmt.Fprintln(os.Stderr, "DaemonLab's page runs in a browser: build it with `make build` and serve it with `make serve`.")
	os.Exit(2)
}

//go:build js && wasm

// Command floor is the least a Go page costs that links what DaemonLab's core cannot do
// without, used as little as possible: goccy's YAML parser (manifests), encoding/json (the API
// objects, -o json), regexp (grep, jsonpath, the lessons' goals), math/big (Quantity), fmt and
// time. `make bench` measures its size and time to interactive beside the page's and the
// hello-world page's: what the page costs above the floor is DaemonLab's own.
package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"syscall/js"
	"time"

	"github.com/goccy/go-yaml/parser"
)

type object struct {
	Name   string            `json:"name"`
	Labels map[string]string `json:"labels,omitempty"`
}

func main() {
	in := js.Global().Get("location").Get("hash").String()
	var o object
	_ = json.Unmarshal([]byte(in), &o)
	out, _ := json.Marshal(o)
	file, err := parser.ParseBytes([]byte(in), 0)
	q, _ := new(big.Int).SetString(in, 10)
	text := fmt.Sprint(string(out), file != nil, err, regexp.MustCompile(`^[a-z]+$`).MatchString(in), q, time.Duration(len(in)))
	doc := js.Global().Get("document")
	p := doc.Call("createElement", "p")
	p.Set("textContent", text)
	doc.Get("body").Call("appendChild", p)
	doc.Get("documentElement").Call("setAttribute", "data-ready", "true")
}

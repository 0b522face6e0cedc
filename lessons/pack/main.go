// Command pack writes the lessons and challenges as the page's lessons.json
// (playground.PackLessons), which the page's build fetches instead of linking them in:
// `make build` runs it.
package main

import (
	"fmt"
	"os"

	"daemonlab/core/playground"
	"daemonlab/lessons"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pack FILE (writes the lessons as lessons.json to FILE)")
		os.Exit(2)
	}
	data, err := playground.PackLessons(lessons.Files, lessons.Challenges)
	if err == nil {
		err = os.WriteFile(os.Args[1], data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}

// Package hosting holds the rules of how DaemonLab's files are named and served, in one place
// for the two that apply them: the dev server's Handler (wasm/serve) sends them as headers, and
// `make dist` (wasm/dist) names the deployable folder's files by them and writes them down for
// other servers (a _headers file, an nginx snippet).
//
// The rules:
//
//  1. Hashed names: every asset of the deployable folder but the pages and the service worker
//     is named by its content, name.HASH.ext, HASH the first 10 hex digits of the content's
//     SHA-256 (HashedName); such a name never changes its content, so it is cached for a year
//     and never revalidated (Cache-Control: public, max-age=31536000, immutable).
//  2. Everything else — the pages (*.html), sw.js, and every file of the unhashed site/ the dev
//     server serves — is revalidated on every use (Cache-Control: no-cache), so a new version
//     shows at once.
//  3. Every response carries X-Content-Type-Options: nosniff and Referrer-Policy: no-referrer.
//  4. A page's Content-Security-Policy is the one its own <meta http-equiv> declares, followed
//     by frame-ancestors, which a <meta> cannot carry: * for embed.html (the compact page other
//     sites put in an iframe), 'self' for every other page (no other site may frame them).
//  5. Compressible files (text and WebAssembly) are stored beside themselves in brotli (.br)
//     and gzip (.gz); a client gets brotli if it accepts it, else gzip, else the file itself.
package hosting

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"mime"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

func init() {
	_ = mime.AddExtensionType(".wasm", "application/wasm")
}

// Cache-Control values (rules 1 and 2).
const (
	Immutable  = "public, max-age=31536000, immutable"
	Revalidate = "no-cache"
)

// Common is the headers every response carries (rule 3), in a fixed order.
var Common = [][2]string{
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
}

// hashDigits is how many hex digits of the SHA-256 a hashed name carries.
const hashDigits = 10

var hashedName = regexp.MustCompile(`\.[0-9a-f]{` + strconv.Itoa(hashDigits) + `}\.[^./]+$`)

// HashedName is name with its content's hash before its extension (rule 1):
// main.wasm → main.1a2b3c4d5e.wasm.
func HashedName(name string, content []byte) string {
	sum := sha256.Sum256(content)
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:hashDigits] + ext
}

// Hashed reports whether name is a hashed name (rule 1).
func Hashed(name string) bool {
	return hashedName.MatchString(path.Base(name))
}

// IsPage reports whether name is a page: an HTML file (a painted copy is not a page of its
// own: see Painted).
func IsPage(name string) bool {
	return path.Ext(name) == ".html" && !IsPainted(name)
}

// paintedSuffix ends a page's painted copy.
const paintedSuffix = ".painted.html"

// IsPainted reports whether name is a page's painted copy (see Painted).
func IsPainted(name string) bool { return strings.HasSuffix(name, paintedSuffix) }

// Painted is the name of a page's painted copy: the page with its start screen drawn before the
// WebAssembly arrives (`make build`, wasm/prerender): index.html → index.painted.html. Where a
// site has it, it is what is served and deployed as the page; "" for a name that is no page.
func Painted(page string) string {
	if !IsPage(page) {
		return ""
	}
	return strings.TrimSuffix(page, ".html") + paintedSuffix
}

// ServiceWorker is the service worker's name; it keeps its name, as browsers look for it there.
const ServiceWorker = "sw.js"

// CacheControl is the Cache-Control of the file name (rules 1 and 2).
func CacheControl(name string) string {
	if Hashed(name) && !IsPage(name) && path.Base(name) != ServiceWorker {
		return Immutable
	}
	return Revalidate
}

// FrameAncestors is the frame-ancestors source of the page name (rule 4).
func FrameAncestors(page string) string {
	if path.Base(page) == "embed.html" {
		return "*"
	}
	return "'self'"
}

// Policy is the Content-Security-Policy header of the page name whose text is page (rule 4).
func Policy(name string, page []byte) string {
	fa := "frame-ancestors " + FrameAncestors(name)
	if p := strings.TrimRight(strings.TrimSpace(metaPolicy(string(page))), ";"); p != "" {
		return p + "; " + fa
	}
	return fa
}

var (
	metaTag   = regexp.MustCompile(`(?is)<meta\s[^>]*>`)
	attribute = regexp.MustCompile(`(?s)([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')`)
)

// metaPolicy is the content of page's first <meta http-equiv="Content-Security-Policy">
// (attributes in any order and case, quoted either way, entities decoded), or "".
func metaPolicy(page string) string {
	for _, tag := range metaTag.FindAllString(page, -1) {
		attrs := map[string]string{}
		for _, a := range attribute.FindAllStringSubmatch(tag, -1) {
			attrs[strings.ToLower(a[1])] = html.UnescapeString(a[2] + a[3])
		}
		if strings.EqualFold(attrs["http-equiv"], "Content-Security-Policy") {
			return attrs["content"]
		}
	}
	return ""
}

// ContentType is the Content-Type of the file name, by its extension ("" when unknown).
func ContentType(name string) string {
	return mime.TypeByExtension(path.Ext(name))
}

// compressible are the extensions of the files stored compressed beside themselves (rule 5).
var compressible = map[string]bool{
	".html": true, ".js": true, ".mjs": true, ".css": true, ".wasm": true, ".json": true,
	".svg": true, ".txt": true, ".xml": true, ".map": true,
}

// Compressible reports whether name is stored compressed beside itself (rule 5).
func Compressible(name string) bool {
	return compressible[path.Ext(name)]
}

// Encoding is a content coding a compressed copy is stored in, and its copy's suffix.
type Encoding struct{ Name, Suffix string }

// Encodings are the stored codings in the order of preference (rule 5).
var Encodings = []Encoding{{"br", ".br"}, {"gzip", ".gz"}}

// Accepted is the stored codings an Accept-Encoding header accepts, in the order of preference
// (rule 5): a coding is accepted when it is listed, or * is, with a q-value above 0 (q=0
// refuses it; a listed coding's own q-value wins over *'s).
func Accepted(acceptEncoding string) []Encoding {
	q := map[string]float64{}
	for _, part := range strings.Split(acceptEncoding, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					weight = f
				} else {
					weight = 0 // a q-value that is not a number accepts nothing
				}
			}
		}
		q[coding] = weight
	}
	var out []Encoding
	for _, e := range Encodings {
		w, listed := q[e.Name]
		if !listed {
			w, listed = q["*"]
		}
		if listed && w > 0 {
			out = append(out, e)
		}
	}
	return out
}

// Compress is data in the content coding named (rule 5): "br" at quality 11 with the largest
// window browsers decode (16 MB), "gzip" at level 9.
func Compress(coding string, data []byte) ([]byte, error) {
	var b bytes.Buffer
	switch coding {
	case "br":
		w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
	case "gzip":
		w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("no content coding %q", coding)
	}
	return b.Bytes(), nil
}

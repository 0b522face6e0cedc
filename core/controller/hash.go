package controller

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	"daemonlab/core/api"
)

// ComputeHash names a pod template as upstream's ComputeHash (pkg/controller/controller_utils.go) does: an FNV-32a hash, with
// the collision count mixed in, written in decimal and passed through rand.SafeEncodeString.
// Upstream hashes a Go-syntax dump of its own types; DaemonLab hashes the template's JSON, so
// the hashes have the same shape (8-10 characters of 4-9, b, c, d, f) but not the same value.
func ComputeHash(t *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	b, _ := json.Marshal(t)
	h.Write(b)
	if collisionCount != nil {
		var buf [4]byte
		for i := range buf {
			buf[i] = byte(uint32(*collisionCount) >> (8 * i))
		}
		h.Write(buf[:])
	}
	return safeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// safeEncode maps every byte to apimachinery's alphanums, as rand.SafeEncodeString.
func safeEncode(s string) string {
	const alphanums = "bcdfghjklmnpqrstvwxz2456789"
	b := []byte(s)
	for i, c := range b {
		b[i] = alphanums[int(c)%len(alphanums)]
	}
	return string(b)
}

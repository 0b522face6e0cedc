package cluster

// Memo is one kind of thing a controller remembers, by key: state upstream keeps in a
// controller's memory (when an eviction was scheduled, the Ready status last seen, a rate
// limiter's last use, a back-off entry). It is part of the world, so snapshots keep it.
//
// Values are stored as they are and shared with every snapshot, as stored objects are: V is a
// plain value (numbers, strings, time.Time and structs of them), never something that can be
// changed behind the store's back (a pointer, slice or map).
type Memo[K, V comparable] struct{ name string }

// NewMemo returns the memo of that name. Memos of different key or value types never share an
// entry; two of the same types are told apart by their names.
func NewMemo[K, V comparable](name string) Memo[K, V] { return Memo[K, V]{name} }

// memoKey is where a memo keeps its value for a key in the cluster's memory.
type memoKey[K, V comparable] struct {
	memo string
	key  K
}

// Get returns the value remembered under key, and whether there is one.
func (m Memo[K, V]) Get(c *Cluster, key K) (V, bool) {
	v, ok := c.memo[memoKey[K, V]{m.name, key}].(V)
	return v, ok
}

// Set remembers a value under key. Setting the value already remembered is no write.
func (m Memo[K, V]) Set(c *Cluster, key K, v V) {
	k := memoKey[K, V]{m.name, key}
	if old, ok := c.memo[k].(V); ok && old == v {
		return
	}
	c.ownMemo()[k] = v
	c.writes++
}

// Forget drops the value remembered under key, if there is one.
func (m Memo[K, V]) Forget(c *Cluster, key K) {
	k := memoKey[K, V]{m.name, key}
	if _, ok := c.memo[k]; ok {
		delete(c.ownMemo(), k)
		c.writes++
	}
}

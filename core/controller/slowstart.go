package controller

// SlowStartBatch makes count creates as the controllers' slowStartBatch does
// (pkg/controller/replicaset/replica_set.go slowStartBatch; the DaemonSet controller's syncNodes
// batches the same way):
//
//  1. The creates go in batches of 1, 2, 4, 8, … (SlowStartInitialBatchSize 1, doubling), each
//     capped at what remains.
//  2. A batch in which a create fails is the last: the creates not yet tried wait for a later
//     sync, so a template the API server refuses costs one failed create, not count.
//
// create makes the i-th create; SlowStartBatch returns whether one failed.
func SlowStartBatch(count int, create func(i int) error) (failed bool) {
	for pos, batch := 0, min(count, 1); pos < count && !failed; pos, batch = pos+batch, min(2*batch, count-pos-batch) {
		for i := pos; i < pos+batch; i++ {
			failed = create(i) != nil || failed
		}
	}
	return failed
}

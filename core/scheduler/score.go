package scheduler

const maxNodeScore = 100

// normalize is DefaultNormalizeScore: scaled so the highest is 100; reversed, so the lowest is.
func normalize(scores []int64, reverse bool) {
	var highest int64
	for _, s := range scores {
		highest = max(highest, s)
	}
	for n, s := range scores {
		switch {
		case highest == 0 && reverse:
			scores[n] = maxNodeScore
		case highest == 0:
		case reverse:
			scores[n] = maxNodeScore - maxNodeScore*s/highest
		default:
			scores[n] = maxNodeScore * s / highest
		}
	}
}

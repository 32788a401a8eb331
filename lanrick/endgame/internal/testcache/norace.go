//go:build !race

package testcache

// race is set in a binary built with the race detector.
const race = false

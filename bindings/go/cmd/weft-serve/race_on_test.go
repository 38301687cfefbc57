//go:build race

package main

// raceDetector: this test binary runs under -race, whose shadow memory grows
// with the memory a test touches (Go documents 5-10x), so RSS bounds scale.
const raceDetector = true

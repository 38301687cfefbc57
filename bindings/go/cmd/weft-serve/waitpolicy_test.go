package main

import (
	"fmt"
	"testing"
)

func TestPassiveWaitIsAskedForUnlessTheUserChose(t *testing.T) {
	env := []string{"PATH=/bin", "HOME=/root"}
	got := passiveWaitEnv(env)
	if fmt.Sprint(got) != "[PATH=/bin HOME=/root OMP_WAIT_POLICY=PASSIVE]" || len(env) != 2 {
		t.Fatalf("no policy set: %v (from %v)", got, env)
	}
	for _, chosen := range []string{"OMP_WAIT_POLICY=ACTIVE", "GOMP_SPINCOUNT=1000", "OMP_WAIT_POLICY="} {
		if got := passiveWaitEnv(append(env, chosen)); got != nil {
			t.Errorf("%s: the user's choice must stand, got %v", chosen, got)
		}
	}
	// The re-executed server sees its own variable and does not loop.
	if got := passiveWaitEnv(passiveWaitEnv(env)); got != nil {
		t.Errorf("a second exec was asked for: %v", got)
	}
}

package weft

import (
	"context"
	"errors"
	"sync"
)

// ErrPoolClosed is returned by Get on a closed Pool.
var ErrPoolClosed = errors.New("weft: the predictor pool is closed")

// Pool hands out predictors of one model, one goroutine at a time each. The
// predictors share the model's parameter arrays (they are Reshape copies of one
// predictor), so a pool of n costs n sets of activations, not n models.
type Pool struct {
	free chan *Predictor
	all  []*Predictor

	mu     sync.RWMutex // closed vs Put
	closed bool
}

// NewPool makes a pool of size predictors: base and size-1 copies sharing its
// parameters. The pool owns base from now on.
func NewPool(base *Predictor, size int) (*Pool, error) {
	if size < 1 {
		return nil, argError("NewPool", "pool size must be at least 1, got %d", size)
	}
	p := &Pool{free: make(chan *Predictor, size), all: []*Predictor{base}}
	for len(p.all) < size {
		sibling, err := base.Reshape(nil)
		if err != nil {
			for _, pr := range p.all {
				pr.Close()
			}
			return nil, err
		}
		p.all = append(p.all, sibling)
	}
	for _, pr := range p.all {
		p.free <- pr
	}
	return p, nil
}

// Size is the number of predictors.
func (p *Pool) Size() int { return len(p.all) }

// Get waits for a free predictor (or ctx's end). Give it back with Put.
func (p *Pool) Get(ctx context.Context) (*Predictor, error) {
	select {
	case pr, ok := <-p.free:
		if !ok {
			return nil, ErrPoolClosed
		}
		return pr, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Put returns a predictor taken with Get.
func (p *Pool) Put(pr *Predictor) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed {
		pr.Close()
		return
	}
	p.free <- pr
}

// Do runs f with a predictor of the pool.
func (p *Pool) Do(ctx context.Context, f func(*Predictor) error) error {
	pr, err := p.Get(ctx)
	if err != nil {
		return err
	}
	defer p.Put(pr)
	return f(pr)
}

// Close frees every predictor; those still out are freed by Put. Get returns
// ErrPoolClosed afterwards.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	close(p.free)
	for pr := range p.free {
		pr.Close()
	}
}

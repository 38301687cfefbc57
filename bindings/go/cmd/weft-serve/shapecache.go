package main

import (
	"container/list"
	"strconv"
	"strings"
	"sync"

	"weft.dev/weft"
)

// shapeCache keeps idle predictors per input shape, for at most maxShapes
// shapes: taking a shape moves it to the front, and a new shape beyond the
// bound evicts the least recently used one (its idle predictors are freed at
// once, those in use when they come back). At most poolSize predictors of a
// shape are ever in use, so the cache holds at most maxShapes*poolSize.
type shapeCache struct {
	mu        sync.Mutex
	maxShapes int
	lru       *list.List // of *shapeEntry, most recent first
	byKey     map[string]*list.Element
	closed    bool
}

type shapeEntry struct {
	key     string
	idle    []*weft.Predictor
	inUse   int
	evicted bool
}

func newShapeCache(maxShapes int) *shapeCache {
	return &shapeCache{maxShapes: max(1, maxShapes), lru: list.New(), byKey: map[string]*list.Element{}}
}

// take gives an idle predictor of key and its entry, or nil when there is none
// (the caller makes one and registers it with entry).
func (c *shapeCache) take(key string) (*weft.Predictor, *shapeEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, nil
	}
	c.lru.MoveToFront(el)
	e := el.Value.(*shapeEntry)
	if len(e.idle) == 0 {
		return nil, nil
	}
	pr := e.idle[len(e.idle)-1]
	e.idle = e.idle[:len(e.idle)-1]
	e.inUse++
	return pr, e
}

// entry registers a predictor the caller made for key (now in use) and gives
// the entry to return it to.
func (c *shapeCache) entry(key string) *shapeEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(el)
		e := el.Value.(*shapeEntry)
		e.inUse++
		return e
	}
	e := &shapeEntry{key: key, inUse: 1}
	c.byKey[key] = c.lru.PushFront(e)
	for c.lru.Len() > c.maxShapes {
		old := c.lru.Back()
		c.evict(old.Value.(*shapeEntry))
	}
	return e
}

func (c *shapeCache) evict(e *shapeEntry) {
	c.lru.Remove(c.byKey[e.key])
	delete(c.byKey, e.key)
	e.evicted = true
	for _, pr := range e.idle {
		pr.Close()
	}
	e.idle = nil
}

// give returns a predictor taken or registered for e.
func (c *shapeCache) give(e *shapeEntry, pr *weft.Predictor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.inUse--
	if e.evicted || c.closed {
		pr.Close()
		return
	}
	e.idle = append(e.idle, pr)
}

// stats gives the number of cached shapes, predictors in use and idle ones.
func (c *shapeCache) stats() (shapes, inUse, idle int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for el := c.lru.Front(); el != nil; el = el.Next() {
		e := el.Value.(*shapeEntry)
		inUse += e.inUse
		idle += len(e.idle)
	}
	return c.lru.Len(), inUse, idle
}

func (c *shapeCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for c.lru.Len() > 0 {
		c.evict(c.lru.Back().Value.(*shapeEntry))
	}
}

// shapeKey names a set of input shapes: "data=1,3,8,8;mask=1,8".
func shapeKey(inputs []weft.Input) string {
	var b strings.Builder
	for i, in := range inputs {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(in.Name)
		b.WriteByte('=')
		b.WriteString(intsText(in.Shape))
	}
	return b.String()
}

// trailingKey names the shapes of a request's inputs without the batch axis.
func trailingKey(ts []tensor) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.Itoa(int(t.dtype)))
		b.WriteByte(':')
		if len(t.shape) > 0 {
			b.WriteString(intsText(t.shape[1:]))
		}
	}
	return b.String()
}

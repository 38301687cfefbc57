package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// batcher implements dynamic batching: requests arriving within maxDelay of
// the first one are concatenated along axis 0 (up to maxRows rows) and run as
// one forward pass; each caller gets its own rows of the outputs back. A batch
// goes at once when no other request is on its way (Note [Batch at once]).
type batcher struct {
	m        *model
	maxRows  int64
	maxDelay time.Duration
	queue    chan *batchJob
	// waiting counts the jobs submitted and not yet taken by the collector
	// (incremented before the send, decremented on receipt).
	waiting atomic.Int64
	quit    chan struct{}  // closed by stop; queue is never closed, so a late submit cannot panic
	wg      sync.WaitGroup // collector and running batches
}

var errBatcherStopped = errors.New("the model is shutting down")

type batchJob struct {
	inputs []tensor
	done   chan batchResult // buffered: the runner never blocks on a gone caller
}

type batchResult struct {
	outputs []tensor
	tm      runTiming // the batch's pass (stats.go charges it to each request)
	err     error
}

func newBatcher(m *model, maxRows int, maxDelay time.Duration) *batcher {
	b := &batcher{m: m, maxRows: int64(maxRows), maxDelay: maxDelay, queue: make(chan *batchJob),
		quit: make(chan struct{})}
	b.wg.Add(1)
	go b.collect()
	return b
}

// submit queues a validated request and waits for its share of a batch.
func (b *batcher) submit(ctx context.Context, inputs []tensor) ([]tensor, runTiming, error) {
	if inputs[0].rows() >= b.maxRows { // a full batch on its own
		return b.m.run(ctx, inputs)
	}
	job := &batchJob{inputs: inputs, done: make(chan batchResult, 1)}
	b.waiting.Add(1)
	select {
	case b.queue <- job: // from here on the collector answers the job
	case <-ctx.Done():
		b.waiting.Add(-1)
		return nil, runTiming{}, ctx.Err()
	case <-b.quit:
		b.waiting.Add(-1)
		return nil, runTiming{}, errBatcherStopped
	}
	select {
	case r := <-job.done:
		return r.outputs, r.tm, r.err
	case <-ctx.Done():
		return nil, runTiming{}, ctx.Err()
	}
}

// Note [Batch at once]
// ~~~~~~~~~~~~~~~~~~~~
// Waiting maxDelay for company only pays when company may come. At low load
// a lone request waited the whole delay for nothing (issue 42: batching on
// halved the requests/s at concurrency 1). Triton's dynamic batcher with a
// zero queue delay sends a batch as soon as no other request is queued; we
// send at once when nothing else is in flight: no submitted job has yet to
// reach the collector (waiting == 0) and no forward pass is running. While
// one runs, the collector keeps gathering (up to the delay, or until a pass
// ends, which the model signals on freed): the requests arriving meanwhile
// ride along in one batch instead of queueing as single-row passes, which
// at concurrency 16 cost a third of the throughput when we sent a batch
// whenever a slot was free. So an idle server answers a lone request with
// no delay, and a busy one batches as before.

// collect forms batches: it takes the first waiting job, then whatever
// arrives while others are on their way, until the delay ends or the rows
// would exceed maxRows; a job that does not fit (or has other trailing
// shapes) starts the next batch.
func (b *batcher) collect() {
	defer b.wg.Done()
	var next *batchJob
	take := func(job *batchJob) *batchJob { b.waiting.Add(-1); return job }
	for {
		first := next
		next = nil
		if first == nil {
			select {
			case job := <-b.queue:
				first = take(job)
			case <-b.quit:
				return
			}
		}
		jobs, rows := []*batchJob{first}, first.inputs[0].rows()
		key := trailingKey(first.inputs) // only requests of the same trailing shapes batch together
		var timer *time.Timer
	gather:
		for rows < b.maxRows && (b.waiting.Load() > 0 || b.m.running.Load() > 0) {
			if timer == nil {
				timer = time.NewTimer(b.maxDelay)
			}
			select {
			case <-b.quit:
				break gather
			case <-b.m.freed: // a pass ended: the loop's condition decides again
			case job := <-b.queue:
				take(job)
				if rows+job.inputs[0].rows() > b.maxRows || trailingKey(job.inputs) != key {
					next = job
					break gather
				}
				jobs = append(jobs, job)
				rows += job.inputs[0].rows()
			case <-timer.C:
				break gather
			}
		}
		if timer != nil {
			timer.Stop()
		}
		b.wg.Add(1)
		go b.runBatch(jobs) // the pool bounds how many batches run at once
	}
}

func (b *batcher) runBatch(jobs []*batchJob) {
	defer b.wg.Done()
	rows := make([]int64, len(jobs))
	var total int64
	for i, j := range jobs {
		rows[i] = j.inputs[0].rows()
		total += rows[i]
	}
	// Batches are padded with zero rows to a bucket size, so each pooled
	// predictor meets a few shapes (1, 2, 4, ... maxRows) and keeps them all
	// bound: a reshape costs several forward passes of a small model.
	pad := bucketRows(total, b.maxRows) - total
	inputs := make([]tensor, len(b.m.inputs))
	for k := range inputs {
		parts := make([]tensor, 0, len(jobs)+1)
		for _, j := range jobs {
			parts = append(parts, j.inputs[k])
		}
		if pad > 0 {
			zero := parts[0]
			parts = append(parts, tensor{shape: append([]int64{pad}, zero.shape[1:]...), dtype: zero.dtype,
				data: make([]byte, pad*zero.rowBytes())})
		}
		inputs[k] = concatRows(parts)
	}
	outputs, tm, err := b.m.run(context.Background(), inputs)
	if err != nil {
		for _, j := range jobs {
			j.done <- batchResult{err: err}
		}
		return
	}
	perJob := make([][]tensor, len(jobs))
	for _, o := range outputs {
		for i, piece := range splitRows(o, rows) { // the padding rows are left out
			perJob[i] = append(perJob[i], piece)
		}
	}
	for i, j := range jobs {
		j.done <- batchResult{outputs: perJob[i], tm: tm}
	}
}

// bucketRows rounds rows up to a power of two, at most maxRows.
func bucketRows(rows, maxRows int64) int64 {
	bucket := int64(1)
	for bucket < rows {
		bucket *= 2
	}
	return min(bucket, max(maxRows, rows))
}

// stop ends the collector (the jobs it holds still run) and waits for the
// running batches.
func (b *batcher) stop() {
	close(b.quit)
	b.wg.Wait()
}

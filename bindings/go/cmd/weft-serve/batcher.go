package main

import (
	"context"
	"errors"
	"sync"
	"time"
)

// batcher implements dynamic batching: requests arriving within maxDelay of
// the first one are concatenated along axis 0 (up to maxRows rows) and run as
// one forward pass; each caller gets its own rows of the outputs back.
type batcher struct {
	m        *model
	maxRows  int64
	maxDelay time.Duration
	queue    chan *batchJob
	quit     chan struct{}  // closed by stop; queue is never closed, so a late submit cannot panic
	wg       sync.WaitGroup // collector and running batches
}

var errBatcherStopped = errors.New("the model is shutting down")

type batchJob struct {
	inputs []tensor
	done   chan batchResult // buffered: the runner never blocks on a gone caller
}

type batchResult struct {
	outputs []tensor
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
func (b *batcher) submit(ctx context.Context, inputs []tensor) ([]tensor, error) {
	if inputs[0].rows() >= b.maxRows { // a full batch on its own
		return b.m.run(ctx, inputs)
	}
	job := &batchJob{inputs: inputs, done: make(chan batchResult, 1)}
	select {
	case b.queue <- job: // from here on the collector answers the job
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.quit:
		return nil, errBatcherStopped
	}
	select {
	case r := <-job.done:
		return r.outputs, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// collect forms batches: it takes the first waiting job, then whatever
// arrives until the delay ends or the rows would exceed maxRows; a job that
// does not fit (or has other trailing shapes) starts the next batch.
func (b *batcher) collect() {
	defer b.wg.Done()
	var next *batchJob
	for {
		first := next
		next = nil
		if first == nil {
			select {
			case first = <-b.queue:
			case <-b.quit:
				return
			}
		}
		jobs, rows := []*batchJob{first}, first.inputs[0].rows()
		key := trailingKey(first.inputs) // only requests of the same trailing shapes batch together
		timer := time.NewTimer(b.maxDelay)
	gather:
		for rows < b.maxRows {
			select {
			case <-b.quit:
				break gather
			case job := <-b.queue:
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
		timer.Stop()
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
	outputs, err := b.m.run(context.Background(), inputs)
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
		j.done <- batchResult{outputs: perJob[i]}
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

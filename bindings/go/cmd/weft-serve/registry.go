package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"sync"
	"time"

	"weft.dev/weft"
)

// registry is the set of served models, kept in step with the model
// directory: scan loads what appeared or changed and retires what went; a
// model or version that fails to load is kept as unavailable with its error,
// and the others keep serving.
type registry struct {
	cfg config
	mt  *metrics
	log *slog.Logger

	// probeExe is the binary re-executed as the load probe (Note [Load
	// probe]); probeCtx ends when the registry closes, stopping a probe.
	probeExe     string
	probeExeErr  error
	probeCtx     context.Context
	cancelProbes context.CancelFunc

	scanMu  sync.Mutex // one scan at a time
	mu      sync.RWMutex
	models  map[string]*modelEntry
	scanned bool // the first scan is done
	closed  bool // under scanMu: no scan after close
}

// modelEntry is one model name: its served versions and their state.
type modelEntry struct {
	name     string
	versions map[int]*versionState
	err      error // why the model as a whole cannot serve (no params file, ...)
}

type versionState struct {
	stamp string // of the symbol, shapes and params files it was loaded from
	m     *model // nil when loading failed
	err   error
}

// unavailable says why the version cannot answer (nil: it can): its load
// failed, or its bind probe crashed (Note [Load probe]).
func (vs *versionState) unavailable() error {
	if vs.m == nil {
		return vs.err
	}
	return vs.m.broken()
}

func newRegistry(cfg config, mt *metrics, log *slog.Logger) *registry {
	r := &registry{cfg: cfg, mt: mt, log: log, models: map[string]*modelEntry{}}
	// /proc/self/exe is this very binary even after an upgrade replaced or
	// deleted the file it was started from; elsewhere, the path it had.
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		r.probeExe = "/proc/self/exe"
	} else {
		r.probeExe, r.probeExeErr = os.Executable()
	}
	r.probeCtx, r.cancelProbes = context.WithCancel(context.Background())
	return r
}

// scan brings the registry in step with the directory. Loading runs outside
// the lock, so requests keep being answered meanwhile.
func (r *registry) scan() error {
	r.scanMu.Lock()
	defer r.scanMu.Unlock()
	if r.closed {
		return nil
	}
	files, err := findModels(r.cfg.modelDir)
	if err != nil {
		return err
	}
	r.mu.RLock()
	old := r.models
	r.mu.RUnlock()
	next := map[string]*modelEntry{}
	var retired []*model
	for name, mf := range files {
		next[name] = r.scanModel(mf, old[name], &retired)
	}
	for name, e := range old {
		if next[name] == nil {
			r.log.Info("model removed", "model", name)
			for _, vs := range e.versions {
				if vs.m != nil {
					retired = append(retired, vs.m)
				}
			}
		}
	}
	r.mu.Lock()
	r.models = next
	r.scanned = true
	r.mu.Unlock()
	for _, m := range retired { // no new request can find them now
		m.retire()
	}
	return nil
}

// scanModel reuses the versions of prev whose files did not change and loads
// the others (the newest maxVersions epochs).
func (r *registry) scanModel(mf *modelFiles, prev *modelEntry, retired *[]*model) *modelEntry {
	e := &modelEntry{name: mf.name, versions: map[int]*versionState{}}
	base := stamp(mf.symbolPath) + "|" + stamp(mf.shapesPath)
	epochs := mf.epochs()
	if len(epochs) == 0 {
		e.err = fmt.Errorf("no %s-NNNN.params beside %s", mf.name, mf.symbolPath)
	}
	if len(epochs) > r.cfg.maxVersions {
		epochs = epochs[:r.cfg.maxVersions]
	}
	for _, v := range epochs {
		st := base + "|" + stamp(mf.versions[v])
		if prev != nil && prev.versions[v] != nil && prev.versions[v].stamp == st {
			e.versions[v] = prev.versions[v]
			continue
		}
		m, err := r.load(mf, v)
		e.versions[v] = &versionState{stamp: st, m: m, err: err}
		r.mt.observeLoad(mf.name, err == nil)
		if err != nil {
			r.log.Error("model version unavailable", "model", mf.name, "version", v, "error", err.Error())
		} else {
			r.log.Info("model version loaded", "model", mf.name, "version", v, "inputs", m.inputNames(),
				"shape_hint", m.hints != nil)
		}
	}
	if prev != nil {
		for v, vs := range prev.versions {
			if vs.m != nil && e.versions[v] != vs {
				*retired = append(*retired, vs.m)
			}
		}
	}
	if e.err != nil && (prev == nil || prev.err == nil || prev.err.Error() != e.err.Error()) {
		r.log.Error("model unavailable", "model", mf.name, "error", e.err.Error())
	}
	return e
}

func (r *registry) load(mf *modelFiles, version int) (*model, error) {
	sym, err := os.ReadFile(mf.symbolPath)
	if err != nil {
		return nil, err
	}
	params, err := os.ReadFile(mf.versions[version])
	if err != nil {
		return nil, err
	}
	hints, err := shapeHints(mf, r.cfg.shapes)
	if err != nil {
		return nil, err
	}
	if err := r.probe(mf.name, version, string(sym), params, hints); err != nil {
		return nil, err
	}
	labels, labelFile, err := loadLabels(mf.symbolPath, mf.name)
	if err != nil {
		return nil, err
	}
	m, err := newModel(mf.name, version, string(sym), params, hints, r.cfg, r.mt)
	if err == nil {
		m.labels, m.labelFile = labels, labelFile
	}
	if err == nil && m.hints == nil { // bound at its first request: probe that bind too
		name := mf.name // the closure holds no model bytes: they are the model's to drop once bound
		m.probeBind = func(symJSON string, params []byte, shapes []weft.Input) error {
			at := map[string][]int64{}
			for _, in := range shapes {
				at[in.Name] = in.Shape
			}
			err := r.probe(name, version, symJSON, params, at)
			if pe, ok := err.(*probeError); ok && pe.crashed {
				r.log.Error("model version unavailable", "model", name, "version", version, "error", pe.Error(),
					"at", fmt.Sprintf("binding the first request's shapes %v", at))
			}
			return err
		}
	}
	return m, err
}

// probe loads the version in a child process first (Note [Load probe]): nil
// when it can be adopted, else why not.
func (r *registry) probe(name string, version int, sym string, params []byte, hints map[string][]int64) error {
	if r.probeExeErr != nil {
		return &probeError{reason: fmt.Sprintf("the load probe cannot start: weft-serve's own path is unknown: %v",
			r.probeExeErr)}
	}
	frame, err := probeFrame(probeRequest{Name: name, Version: version, Hints: hints, Memory: r.cfg.probeMemory},
		sym, params)
	if err != nil {
		return err
	}
	return runProbe(r.probeCtx, exec.Command(r.probeExe, probeArg), frame,
		probeLimits{timeout: r.cfg.probeTimeout, memory: r.cfg.probeMemory})
}

// poll rescans every interval until ctx ends.
func (r *registry) poll(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := r.scan(); err != nil {
				r.log.Error("scanning the model directory failed", "error", err.Error())
			}
		}
	}
}

// lookupError says why a model or version cannot answer; status is the HTTP
// status to reply with.
type lookupError struct {
	status int
	msg    string
}

func (e *lookupError) Error() string { return e.msg }

// acquire gives a served version (the newest that loaded when version is "")
// holding a reference the caller drops with m.refs.Done().
func (r *registry) acquire(name, version string) (*model, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e := r.models[name]
	if e == nil {
		return nil, &lookupError{404, fmt.Sprintf("unknown model '%s' (models: %s)", name, r.namesLocked())}
	}
	var vs *versionState
	if version == "" {
		if e.err != nil {
			return nil, &lookupError{503, fmt.Sprintf("model %s is unavailable: %v", name, e.err)}
		}
		for _, v := range e.sortedVersions() {
			if e.versions[v].unavailable() == nil {
				vs = e.versions[v]
				break
			}
		}
		if vs == nil {
			return nil, &lookupError{503, fmt.Sprintf("model %s is unavailable: %s", name, e.failures())}
		}
	} else {
		v, err := strconv.Atoi(version)
		if err == nil {
			vs = e.versions[v]
		}
		if vs == nil {
			return nil, &lookupError{404, fmt.Sprintf("model %s has no version '%s' (versions: %s)", name, version,
				e.versionList())}
		}
		if why := vs.unavailable(); why != nil {
			return nil, &lookupError{503, fmt.Sprintf("model %s version %s is unavailable: %v", name, version, why)}
		}
	}
	vs.m.refs.Add(1) // under the read lock: a retire (under the write lock) cannot have begun
	return vs.m, nil
}

// loaded gives every version of name that serves, newest first, each
// holding a reference the caller drops with m.refs.Done().
func (r *registry) loaded(name string) []*model {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e := r.models[name]
	if e == nil {
		return nil
	}
	var out []*model
	for _, v := range e.sortedVersions() {
		if vs := e.versions[v]; vs.unavailable() == nil {
			vs.m.refs.Add(1) // under the read lock, as in acquire
			out = append(out, vs.m)
		}
	}
	return out
}

// entry gives a snapshot of one model's state (nil when unknown).
func (r *registry) entry(name string) *modelEntry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.models[name]
}

func (r *registry) names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.sortedNamesLocked()
}

func (r *registry) sortedNamesLocked() []string {
	out := make([]string, 0, len(r.models))
	for n := range r.models {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (r *registry) namesLocked() string {
	names := r.sortedNamesLocked()
	if len(names) == 0 {
		return "none"
	}
	return fmt.Sprint(names)
}

// ready: the first scan is done and at least one model can answer.
func (r *registry) ready() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if !r.scanned {
		return false
	}
	for _, e := range r.models {
		if e.ready() {
			return true
		}
	}
	return false
}

// close frees every model; call it after the HTTP server has stopped.
func (r *registry) close() {
	r.cancelProbes() // a probe in progress ends now, not at its time limit
	r.scanMu.Lock()  // waits for a scan in progress; none starts after
	r.closed = true
	r.scanMu.Unlock()
	r.mu.Lock()
	models := r.models
	r.models = map[string]*modelEntry{}
	r.mu.Unlock()
	for _, e := range models {
		for _, vs := range e.versions {
			if vs.m != nil {
				vs.m.refs.Wait()
				vs.m.close()
			}
		}
	}
}

// sortedVersions gives the versions newest first.
func (e *modelEntry) sortedVersions() []int {
	out := make([]int, 0, len(e.versions))
	for v := range e.versions {
		out = append(out, v)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
}

// latest is the version requests without one get (-1: none can answer).
func (e *modelEntry) latest() int {
	if e.err != nil {
		return -1
	}
	for _, v := range e.sortedVersions() {
		if e.versions[v].unavailable() == nil {
			return v
		}
	}
	return -1
}

func (e *modelEntry) ready() bool { return e.latest() >= 0 }

func (e *modelEntry) versionList() string {
	vs := e.sortedVersions()
	if len(vs) == 0 {
		return "none"
	}
	return fmt.Sprint(vs)
}

// failures describes why no version loaded.
func (e *modelEntry) failures() string {
	if e.err != nil {
		return e.err.Error()
	}
	for _, v := range e.sortedVersions() {
		if why := e.versions[v].unavailable(); why != nil {
			return fmt.Sprintf("version %d: %v", v, why)
		}
	}
	return "no version loaded"
}

// status describes the model for metadata replies: ready, or the error.
func (e *modelEntry) status() (bool, string) {
	if e.ready() {
		return true, ""
	}
	return false, e.failures()
}

package weft

// #include <stdlib.h>
// #include <weft/c_api.h>
import "C"

import (
	"os"
	"runtime"
	"sync"
	"unsafe"
)

// Symbol is a graph read from MXNet 1.x symbol JSON.
type Symbol struct {
	mu sync.Mutex
	h  *C.weft_symbol
}

// LoadSymbol reads a prefix-symbol.json file.
func LoadSymbol(path string) (*Symbol, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, ioError("LoadSymbol", err)
	}
	return SymbolFromJSON(string(b))
}

// SymbolFromJSON parses symbol JSON text.
func SymbolFromJSON(text string) (*Symbol, error) {
	ctext, err := cString("SymbolFromJSON", "the symbol JSON", text)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(ctext))
	var h *C.weft_symbol
	if err := call("weft_symbol_from_json", func() C.int { return C.weft_symbol_from_json(ctext, &h) }); err != nil {
		return nil, err
	}
	s := &Symbol{h: h}
	runtime.SetFinalizer(s, (*Symbol).Close)
	return s, nil
}

// Close frees the handle; safe to call twice, also run by the finalizer.
func (s *Symbol) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h != nil {
		C.weft_symbol_free(s.h)
		s.h = nil
		runtime.SetFinalizer(s, nil)
	}
}

func (s *Symbol) locked(fn string, f func(h *C.weft_symbol) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.h == nil {
		return argError(fn, "the Symbol is closed")
	}
	return onThread(func() error { return f(s.h) })
}

func (s *Symbol) list(fn string, which C.int) ([]string, error) {
	var out []string
	err := s.locked(fn, func(h *C.weft_symbol) error {
		var n C.int
		var names **C.char
		if err := check("weft_symbol_list", C.weft_symbol_list(h, which, &n, &names)); err != nil {
			return err
		}
		out = goStrings(names, int(n)) // thread-local: copied before the next call
		return nil
	})
	return out, err
}

// Arguments lists the graph's arguments (data inputs and parameters).
func (s *Symbol) Arguments() ([]string, error) { return s.list("Symbol.Arguments", 0) }

// Outputs lists the output names ("softmax_output").
func (s *Symbol) Outputs() ([]string, error) { return s.list("Symbol.Outputs", 1) }

// AuxiliaryStates lists the auxiliary states (BatchNorm's running statistics).
func (s *Symbol) AuxiliaryStates() ([]string, error) { return s.list("Symbol.AuxiliaryStates", 2) }

// InternalOutputs lists every entry get_internals() has: the names a partial
// Predictor accepts ("fc1_output").
func (s *Symbol) InternalOutputs() ([]string, error) {
	var out []string
	err := s.locked("Symbol.InternalOutputs", func(h *C.weft_symbol) error {
		var internals *C.weft_symbol
		if err := check("weft_symbol_get_internals", C.weft_symbol_get_internals(h, &internals)); err != nil {
			return err
		}
		defer C.weft_symbol_free(internals)
		var n C.int
		var names **C.char
		if err := check("weft_symbol_list", C.weft_symbol_list(internals, 1, &n, &names)); err != nil {
			return err
		}
		out = goStrings(names, int(n))
		return nil
	})
	return out, err
}

// Attrs gives every node's attributes as "node$key" -> value (MXNet's
// list_attr(recursive=True)); e.g. "data$__shape__".
func (s *Symbol) Attrs() (map[string]string, error) {
	out := map[string]string{}
	err := s.locked("Symbol.Attrs", func(h *C.weft_symbol) error {
		var n C.int
		var pairs **C.char
		if err := check("weft_symbol_list_attr", C.weft_symbol_list_attr(h, 1, &n, &pairs)); err != nil {
			return err
		}
		kv := goStrings(pairs, 2*int(n))
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return nil
	})
	return out, err
}

// JSON gives the MXNet 1.x JSON text of the graph.
func (s *Symbol) JSON() (string, error) {
	var out string
	err := s.locked("Symbol.JSON", func(h *C.weft_symbol) error {
		var text *C.char
		if err := check("weft_symbol_to_json", C.weft_symbol_to_json(h, &text)); err != nil {
			return err
		}
		out = C.GoString(text)
		return nil
	})
	return out, err
}

func goStrings(p **C.char, n int) []string {
	out := make([]string, 0, n)
	if n <= 0 || p == nil {
		return out
	}
	for _, c := range unsafe.Slice(p, n) {
		out = append(out, C.GoString(c))
	}
	return out
}

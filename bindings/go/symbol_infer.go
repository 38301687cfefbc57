package weft

// #include <stdlib.h>
// #include <weft/c_api.h>
import "C"

import (
	"sort"
	"unsafe"
)

// Shapes is the result of shape inference, in list order: Args follows
// Arguments(), Outputs follows Outputs(), Aux follows AuxiliaryStates(). A
// nil shape is one whose rank is unknown; a 0 dim is one not known (MXNet
// 1.x's partial-shape convention, as weft_symbol_infer_shape gives it).
type Shapes struct {
	Args, Outputs, Aux [][]int64
	Complete           bool // every shape fully known
}

// InferShapePartial infers what the given shapes (by argument name; a 0 dim
// is unknown) determine, as MXNet's Symbol.infer_shape_partial: it returns
// what is known instead of failing on what is not. An inconsistent shape
// (a weight that does not fit its input) is still an error.
func (s *Symbol) InferShapePartial(given map[string][]int64) (*Shapes, error) {
	names := make([]string, 0, len(given))
	for n := range given {
		names = append(names, n)
	}
	sort.Strings(names) // deterministic calls, so errors read the same each time
	cnames, err := newCStrings("Symbol.InferShapePartial", "an argument name", names)
	if err != nil {
		return nil, err
	}
	defer cnames.free()
	// The dims and their layout are C memory: cgo forbids passing Go memory
	// holding Go pointers, and these arrays are read by the C side only.
	total := 0
	for _, n := range names {
		total += len(given[n])
	}
	cdims := (*C.int64_t)(C.malloc(C.size_t(8 * max(1, total))))
	cnd := (*C.int)(C.malloc(C.size_t(4 * max(1, len(names)))))
	coff := (*C.int64_t)(C.malloc(C.size_t(8 * max(1, len(names)))))
	defer C.free(unsafe.Pointer(cdims))
	defer C.free(unsafe.Pointer(cnd))
	defer C.free(unsafe.Pointer(coff))
	dims := unsafe.Slice(cdims, max(1, total))
	nds := unsafe.Slice(cnd, max(1, len(names)))
	offs := unsafe.Slice(coff, max(1, len(names)))
	at := 0
	for i, n := range names {
		nds[i], offs[i] = C.int(len(given[n])), C.int64_t(at)
		for _, d := range given[n] {
			dims[at] = C.int64_t(d)
			at++
		}
	}
	out := &Shapes{}
	err = s.locked("Symbol.InferShapePartial", func(h *C.weft_symbol) error {
		var complete C.int
		var n [3]C.int
		var nd [3]*C.int
		var ds [3]**C.int64_t
		rc := C.weft_symbol_infer_shape(h, C.int(len(names)), cnames.ptr(), cnd, cdims, coff, 1, &complete,
			&n[0], &nd[0], &ds[0], &n[1], &nd[1], &ds[1],
			&n[2], &nd[2], &ds[2])
		if err := check("weft_symbol_infer_shape", rc); err != nil {
			return err
		}
		// The result is thread-local: copy it before any other call.
		lists := [3]*[][]int64{&out.Args, &out.Outputs, &out.Aux}
		for k := 0; k < 3; k++ {
			if n[k] == 0 {
				continue
			}
			ndims := unsafe.Slice(nd[k], int(n[k]))
			ptrs := unsafe.Slice(ds[k], int(n[k]))
			for i := range ndims {
				var shape []int64
				if ndims[i] >= 0 {
					shape = make([]int64, int(ndims[i]))
					if ndims[i] > 0 {
						for j, d := range unsafe.Slice(ptrs[i], int(ndims[i])) {
							shape[j] = int64(d)
						}
					}
				}
				*lists[k] = append(*lists[k], shape)
			}
		}
		out.Complete = complete != 0
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DTypes is the result of type inference, in list order (see Shapes); an
// entry is DTypeUnknown where the graph does not decide it.
type DTypes struct {
	Args, Outputs, Aux []DType
	Complete           bool
}

// DTypeUnknown marks a dtype type inference could not decide.
const DTypeUnknown DType = -1

// InferType infers the dtypes the given ones (by argument name) determine,
// as MXNet's Symbol.infer_type, without failing when some stay unknown.
func (s *Symbol) InferType(given map[string]DType) (*DTypes, error) {
	names := make([]string, 0, len(given))
	for n := range given {
		names = append(names, n)
	}
	sort.Strings(names)
	cnames, err := newCStrings("Symbol.InferType", "an argument name", names)
	if err != nil {
		return nil, err
	}
	defer cnames.free()
	ctypes := (*C.enum_weft_dtype)(C.malloc(C.size_t(unsafe.Sizeof(C.enum_weft_dtype(0))) * C.size_t(max(1, len(names)))))
	defer C.free(unsafe.Pointer(ctypes))
	types := unsafe.Slice(ctypes, max(1, len(names)))
	for i, n := range names {
		types[i] = C.enum_weft_dtype(given[n])
	}
	out := &DTypes{}
	err = s.locked("Symbol.InferType", func(h *C.weft_symbol) error {
		var complete C.int
		var n [3]C.int
		var ts [3]*C.enum_weft_dtype
		rc := C.weft_symbol_infer_type(h, C.int(len(names)), cnames.ptr(), ctypes, &complete, &n[0], &ts[0], &n[1],
			&ts[1], &n[2], &ts[2])
		if err := check("weft_symbol_infer_type", rc); err != nil {
			return err
		}
		lists := [3]*[]DType{&out.Args, &out.Outputs, &out.Aux}
		for k := 0; k < 3; k++ {
			if n[k] == 0 {
				continue
			}
			for _, t := range unsafe.Slice(ts[k], int(n[k])) {
				*lists[k] = append(*lists[k], DType(t))
			}
		}
		out.Complete = complete != 0
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

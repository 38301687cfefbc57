package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"weft.dev/weft"
)

// JSON requests: {"inputs": {"data": [[...], ...]}}: one nested list per data
// input, whose nesting gives the shape (axis 0 the batch).
type jsonRequest struct {
	Inputs map[string]json.RawMessage `json:"inputs"`
}

// decodeJSONInputs reads a JSON request into tensors in m.inputs order.
func decodeJSONInputs(m *model, body []byte) ([]tensor, error) {
	var req jsonRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("malformed JSON request: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("malformed JSON request: data after the object")
	}
	if req.Inputs == nil {
		return nil, fmt.Errorf(`the request has no "inputs" object (want {"inputs": {"%s": [...]}})`, m.inputs[0].name)
	}
	for name := range req.Inputs {
		if m.inputIndex(name) < 0 {
			return nil, fmt.Errorf("model %s has no input '%s' (inputs: %s)", m.name, name, m.inputNames())
		}
	}
	out := make([]tensor, len(m.inputs))
	dtypes := m.inputDTypes()
	for i, in := range m.inputs {
		raw, ok := req.Inputs[in.name]
		if !ok {
			return nil, fmt.Errorf("input '%s' is missing (inputs: %s)", in.name, m.inputNames())
		}
		t, err := parseNested(raw, dtypes[i])
		if err != nil {
			return nil, fmt.Errorf("input '%s': %v", in.name, err)
		}
		out[i] = t
	}
	return out, m.checkInputs(out)
}

// parseNested reads a rectangular nested list of numbers (already checked to
// be valid JSON) straight into a tensor of dtype. It streams over the bytes
// instead of building a tree of Go values, so memory stays proportional to the
// numbers actually present: a small body cannot make the server allocate a
// large tensor.
func parseNested(b []byte, dtype weft.DType) (tensor, error) {
	p := nestedParser{b: b, dtype: dtype, leafDepth: -1}
	p.skipSpace()
	if p.i >= len(b) || b[p.i] != '[' {
		return tensor{}, fmt.Errorf("want a nested list with the batch on the outer level, got %s", p.token())
	}
	if err := p.value(0); err != nil {
		return tensor{}, err
	}
	if p.skipSpace(); p.i != len(b) {
		return tensor{}, fmt.Errorf("unexpected %s after the list", p.token())
	}
	return tensor{shape: p.lens, dtype: dtype, data: p.data}, nil
}

type nestedParser struct {
	b         []byte
	i         int
	dtype     weft.DType
	data      []byte
	count     int
	lens      []int64 // list length per depth, fixed by the first list closed there
	leafDepth int     // depth of the numbers, fixed by the first one; -1 before
}

func (p *nestedParser) value(depth int) error {
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == '[' {
		if p.leafDepth >= 0 && depth >= p.leafDepth {
			return fmt.Errorf("ragged list: a list at depth %d where numbers were", depth)
		}
		p.i++
		n := int64(0)
		if p.skipSpace(); p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
		} else {
			for {
				if err := p.value(depth + 1); err != nil {
					return err
				}
				n++
				p.skipSpace()
				if p.i < len(p.b) && p.b[p.i] == ',' {
					p.i++
					continue
				}
				if p.i < len(p.b) && p.b[p.i] == ']' {
					p.i++
					break
				}
				return fmt.Errorf("want ',' or ']' at byte %d, got %s", p.i, p.token())
			}
		}
		for len(p.lens) <= depth {
			p.lens = append(p.lens, -1)
		}
		if p.lens[depth] < 0 {
			p.lens[depth] = n
		} else if p.lens[depth] != n {
			return fmt.Errorf("ragged list: lists at depth %d have %d and %d items", depth, p.lens[depth], n)
		}
		return nil
	}
	if p.leafDepth < 0 {
		p.leafDepth = depth
	} else if depth != p.leafDepth {
		return fmt.Errorf("ragged list: numbers at depths %d and %d", p.leafDepth, depth)
	}
	if p.dtype == weft.Bool { // the v2 protocol sends BOOL data as JSON booleans
		for word, v := range map[string]float64{"true": 1, "false": 0} {
			if bytes.HasPrefix(p.b[p.i:], []byte(word)) {
				p.i += len(word)
				p.data = append(p.data, byte(v))
				p.count++
				return nil
			}
		}
	}
	start := p.i
	for p.i < len(p.b) && strings.IndexByte("+-0123456789.eE", p.b[p.i]) >= 0 {
		p.i++
	}
	if start == p.i {
		return fmt.Errorf("want a number at depth %d, got %s", depth, p.token())
	}
	v, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
	if err != nil {
		return fmt.Errorf("bad number %q", p.b[start:p.i])
	}
	p.data = append(p.data, make([]byte, p.dtype.Size())...)
	if err := putNumber(p.data, p.count, p.dtype, v); err != nil {
		return err
	}
	p.count++
	return nil
}

func (p *nestedParser) skipSpace() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// token describes what stands at the parser's position, for messages.
func (p *nestedParser) token() string {
	if p.i >= len(p.b) {
		return "the end of the input"
	}
	end := min(p.i+12, len(p.b))
	return fmt.Sprintf("%q", p.b[p.i:end])
}

// encodeJSONOutputs writes {"model": name, "outputs": {"name": nested list}}.
// Floats get the shortest text that reads back to the same value; NaN and
// infinities (which JSON lacks) become null.
func encodeJSONOutputs(m *model, names []string, outputs []tensor) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"model":`)
	writeJSONString(&buf, m.name)
	buf.WriteString(`,"outputs":{`)
	for i, t := range outputs {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeJSONString(&buf, names[i])
		buf.WriteByte(':')
		at := 0
		writeNested(&buf, t, 0, &at)
	}
	buf.WriteString("}}\n")
	return buf.Bytes()
}

func writeNested(buf *bytes.Buffer, t tensor, depth int, at *int) {
	if depth == len(t.shape) {
		v, bits, ok := number(t.data, *at, t.dtype)
		*at++
		switch {
		case !ok || math.IsNaN(v) || math.IsInf(v, 0):
			buf.WriteString("null")
		case bits == 0:
			buf.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
		default:
			buf.WriteString(strconv.FormatFloat(v, 'g', -1, bits))
		}
		return
	}
	buf.WriteByte('[')
	for i := int64(0); i < t.shape[depth]; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeNested(buf, t, depth+1, at)
	}
	buf.WriteByte(']')
}

func writeJSONString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

package main

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft"
)

func TestParseNestedShapesAndValues(t *testing.T) {
	cases := []struct {
		text  string
		dtype weft.DType
		shape string
		nums  string
	}{
		{`[1, 2.5, -3e2]`, weft.Float32, "[3]", "[1 2.5 -300]"},
		{" [ [1,2] ,\n [3,4], [5,6] ] ", weft.Float64, "[3 2]", "[1 2 3 4 5 6]"},
		{`[[[7]]]`, weft.Int32, "[1 1 1]", "[7]"},
		{`[[1, 255], [0, 3]]`, weft.Uint8, "[2 2]", "[1 255 0 3]"},
		{`[]`, weft.Float32, "[0]", "[]"},
	}
	for _, c := range cases {
		tn, err := parseNested([]byte(c.text), c.dtype)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		var nums []float64
		for i := 0; i < len(tn.data)/c.dtype.Size(); i++ {
			v, _, _ := number(tn.data, i, c.dtype)
			nums = append(nums, v)
		}
		if fmt.Sprint(tn.shape) != c.shape || fmt.Sprint(nums) != c.nums && !(c.nums == "[]" && nums == nil) {
			t.Errorf("%s: shape %v values %v, want %s %s", c.text, tn.shape, nums, c.shape, c.nums)
		}
	}
}

func TestParseNestedRejectsWhatIsNotATensor(t *testing.T) {
	cases := map[string]string{
		`[[1, 2], [3]]`:                   "ragged",
		`[[1, 2], 3]`:                     "ragged",
		`[1, [2, 3]]`:                     "ragged",
		`[[[1]], [2]]`:                    "ragged",
		`[[0,0,0,0,0,0,0,0], [], [], []]`: "ragged",
		`[1, "2"]`:                        "want a number",
		`[null]`:                          "want a number",
		`{"a": 1}`:                        "nested list",
		`7`:                               "nested list",
		`[1.5]` + strings.Repeat(" ", 3):  "", // trailing space is fine
		`[300]` + "\x00":                  "after the list",
		`[1e999]`:                         "bad number",
	}
	for text, want := range cases {
		_, err := parseNested([]byte(text), weft.Float32)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", text, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error with %q", text, err, want)
		}
	}
	if _, err := parseNested([]byte(`[1.5]`), weft.Int32); err == nil || !strings.Contains(err.Error(), "integer") {
		t.Errorf("1.5 as int32: %v", err)
	}
	if _, err := parseNested([]byte(`[300]`), weft.Uint8); err == nil || !strings.Contains(err.Error(), "range") {
		t.Errorf("300 as uint8: %v", err)
	}
}
